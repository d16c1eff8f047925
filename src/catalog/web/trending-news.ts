import { z } from 'zod';
import { gdelt, searchGdelt } from '../../upstream/providers/gdelt.ts';
import { hackerNewsFrontPage, hnAlgolia, searchHackerNewsStories } from '../../upstream/providers/hn-algolia.ts';
import type { NewsStory } from '../../upstream/providers/news-story.ts';
import { limit } from '../fields.ts';
import { defineTool } from '../tool.ts';
import { engineReports, fanOut } from './fan-out.ts';
import { mergeStories } from './fusion/merge-news.ts';

/** How far back "recent" reaches for a topic on Hacker News (GDELT's own window is its last 24 hours). */
const TOPIC_WINDOW_DAYS = 7;
/** Each provider is asked for more than the limit, so merging and de-duplication still fill it. */
const OVERFETCH = 2;

export const trendingNewsTool = defineTool({
  name: 'get_trending_news',
  title: 'Trending news',
  description:
    'Without a topic: what is trending now on the Hacker News front page. With a topic: recent stories about it from Hacker News (last 7 days) and from news sites worldwide through the GDELT Project (last 24 hours), merged, de-duplicated and ranked by attention for their age. ' +
    'Each story: title, URL, source site, published time (ISO 8601), points and comments where known, and its discussion URL. One provider failing does not fail the call; the answer lists it.',
  price: '0.005',
  http: [{ method: 'GET', path: '/api/news/trending' }],
  input: z.object({
    topic: z.string().trim().min(1).max(200).optional().describe('Only stories about this topic; all trending stories when omitted.'),
    limit: limit(1, 20, 8, 'How many stories to return, 1 to 20.'),
  }),
  example: { topic: 'ai agents', limit: 8 },
  annotations: { readOnlyHint: true, openWorldHint: true },
  timeoutMs: 20_000,
  async handler(input, ctx) {
    const now = ctx.now();
    const wanted = input.limit * OVERFETCH;
    const since = Math.floor(now.getTime() / 1000) - TOPIC_WINDOW_DAYS * 86_400;
    const topic = input.topic;
    const tasks = topic
      ? [
          { provider: hnAlgolia, run: (signal: AbortSignal) => searchHackerNewsStories(ctx.upstream, topic, wanted, signal, since) },
          { provider: gdelt, run: (signal: AbortSignal) => searchGdelt(ctx.upstream, topic, wanted, signal) },
        ]
      : [{ provider: hnAlgolia, run: (signal: AbortSignal) => hackerNewsFrontPage(ctx.upstream, wanted, signal) }];
    const outcome = await fanOut<NewsStory[]>(
      tasks.filter((task) => ctx.upstream.isConfigured(task.provider)),
      { signal: ctx.signal, budgetMs: Math.min(12_000, ctx.deadline - Date.now() - 1_000), summary: 'No news provider answered' },
    );
    const stories = mergeStories(outcome.answers.map(({ answer }) => answer.value), now, input.limit);
    return {
      ...(topic ? { topic } : { trending: 'Hacker News front page' }),
      stories: stories.map(({ rank: _rank, ...story }) => story),
      engines: engineReports(outcome, (value) => value.length),
      sources: outcome.answers.map(({ answer }) => answer.source),
    };
  },
});
