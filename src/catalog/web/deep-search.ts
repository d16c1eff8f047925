import { z } from 'zod';
import { hnAlgolia, searchHackerNews } from '../../upstream/providers/hn-algolia.ts';
import type { SearchHit } from '../../upstream/providers/search-hit.ts';
import { searchStackExchange, stackexchange } from '../../upstream/providers/stackexchange.ts';
import { searchWikipedia, wikipedia } from '../../upstream/providers/wikipedia.ts';
import { limit, text } from '../fields.ts';
import { defineTool } from '../tool.ts';
import type { FanOutTask } from './fan-out.ts';
import { engineReports, fanOut } from './fan-out.ts';
import { fuseRankings } from './fusion/reciprocal-rank-fusion.ts';
import { webSearchEngines } from './web-search-engines.ts';

/** Each engine is asked for this many results: fusion rewards agreement deeper than the limit. */
const PER_ENGINE = 10;
/** The longest one engine may take before its results are left out. */
const ENGINE_BUDGET_MS = 8_000;

export const deepSearchTool = defineTool({
  name: 'search_deep_meta',
  title: 'Meta-search several engines',
  description:
    'Queries several search engines and sources at once — every configured web search engine (SearXNG, Brave Search, DuckDuckGo), Wikipedia, Hacker News and Stack Overflow — and returns their results fused with reciprocal rank fusion, de-duplicated by canonical URL, each saying which engines found it at which rank. ' +
    'An engine that fails or is slow is listed with its reason and does not fail the call.',
  price: '0.008',
  http: [{ method: 'GET', path: '/api/search/deep', rename: { query: 'q' } }],
  input: z.object({
    query: text('What to search for.', 500),
    limit: limit(1, 20, 8, 'How many merged results to return, 1 to 20.'),
  }),
  example: { query: 'EIP-3009 transferWithAuthorization', limit: 8 },
  annotations: { readOnlyHint: true, openWorldHint: true },
  timeoutMs: 20_000,
  async handler(input, ctx) {
    const engines = [
      ...webSearchEngines,
      { provider: wikipedia, search: searchWikipedia },
      { provider: hnAlgolia, search: searchHackerNews },
      { provider: stackexchange, search: searchStackExchange },
    ];
    const tasks: FanOutTask<SearchHit[]>[] = engines
      .filter((engine) => ctx.upstream.isConfigured(engine.provider))
      .map((engine) => ({ provider: engine.provider, run: (signal) => engine.search(ctx.upstream, input.query, PER_ENGINE, signal) }));
    const outcome = await fanOut(tasks, {
      signal: ctx.signal,
      budgetMs: Math.min(ENGINE_BUDGET_MS, ctx.deadline - Date.now() - 1_000),
      summary: 'No search engine answered',
    });
    const fused = fuseRankings(outcome.answers.map(({ provider, answer }) => ({ engine: provider.id, hits: answer.value })));
    return {
      query: input.query,
      results: fused.slice(0, input.limit),
      engines: engineReports(outcome, (hits) => hits.length),
      sources: outcome.answers.map(({ answer }) => answer.source),
    };
  },
});
