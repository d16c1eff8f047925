import { z } from 'zod';
import { limit, text } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const searchTool = defineTool({
  name: 'search_web',
  title: 'Search the web',
  description: 'Searches the web and returns structured, ranked results (title, URL, snippet, rank).',
  price: '0.005',
  http: [{ method: 'GET', path: '/api/search', rename: { query: 'q' } }],
  input: z.object({
    query: text('What to search for.', 500),
    limit: limit(1, 10, 5, 'How many results to return, 1 to 10.'),
  }),
  example: { query: 'x402 payment protocol', limit: 5 },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
