import { z } from 'zod';
import { languageCode, text } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const wikiTool = defineTool({
  name: 'lookup_wiki_fact',
  title: 'Encyclopedia lookup',
  description: 'Looks a subject up in the encyclopedia and returns its summary with citation links.',
  price: '0.002',
  http: [{ method: 'GET', path: '/api/info/wiki' }],
  input: z.object({
    query: text('The subject to look up.', 300),
    lang: languageCode('Language edition of the encyclopedia.').default('en'),
  }),
  example: { query: 'Ethereum', lang: 'en' },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
