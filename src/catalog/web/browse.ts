import { z } from 'zod';
import { httpUrl } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const browseTool = defineTool({
  name: 'browse_web_stealth',
  title: 'Browse a web page',
  description: 'Fetches a public web page and returns its main content as clean Markdown with its metadata (title, byline, language, links).',
  price: '0.005',
  http: [{ method: 'GET', path: '/api/browse' }],
  input: z.object({ url: httpUrl('The page to read: an absolute http(s) URL on the public internet.') }),
  example: { url: 'https://example.com/' },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
