import { z } from 'zod';
import { limit, text } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const deepSearchTool = defineTool({
  name: 'search_deep_meta',
  title: 'Meta-search several engines',
  description: 'Queries several search engines and sources at once and returns their results merged, de-duplicated and re-ranked.',
  price: '0.008',
  http: [{ method: 'GET', path: '/api/search/deep', rename: { query: 'q' } }],
  input: z.object({
    query: text('What to search for.', 500),
    limit: limit(1, 20, 8, 'How many merged results to return, 1 to 20.'),
  }),
  example: { query: 'EIP-3009 transferWithAuthorization', limit: 8 },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
