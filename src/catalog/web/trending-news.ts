import { z } from 'zod';
import { limit } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const trendingNewsTool = defineTool({
  name: 'get_trending_news',
  title: 'Trending news',
  description: 'Returns trending news and discussion stories, optionally filtered by a topic, with their source, link, score and time.',
  price: '0.005',
  http: [{ method: 'GET', path: '/api/news/trending' }],
  input: z.object({
    topic: z.string().trim().min(1).max(200).optional().describe('Only stories about this topic; all trending stories when omitted.'),
    limit: limit(1, 20, 8, 'How many stories to return, 1 to 20.'),
  }),
  example: { topic: 'ai agents', limit: 8 },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
