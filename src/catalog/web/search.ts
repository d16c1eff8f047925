import { z } from 'zod';
import { combinedFailure, UpstreamError } from '../../upstream/upstream-errors.ts';
import { limit, text } from '../fields.ts';
import { defineTool, ToolError } from '../tool.ts';
import { webSearchEngines } from './web-search-engines.ts';
import { siteHost } from '../../net/site-host.ts';

export const searchTool = defineTool({
  name: 'search_web',
  title: 'Search the web',
  description:
    'Searches the web and returns structured, ranked results (position, title, URL, snippet, domain, engine). ' +
    'Asks the first configured engine of: the operator\'s SearXNG instance, the Brave Search API, DuckDuckGo; when one fails, the next answers and the answer lists the failure.',
  price: '0.005',
  http: [{ method: 'GET', path: '/api/search', rename: { query: 'q' } }],
  input: z.object({
    query: text('What to search for.', 500),
    limit: limit(1, 10, 5, 'How many results to return, 1 to 10.'),
  }),
  example: { query: 'x402 payment protocol', limit: 5 },
  annotations: { readOnlyHint: true, openWorldHint: true },
  timeoutMs: 20_000,
  async handler(input, ctx) {
    const engines = webSearchEngines.filter((engine) => ctx.upstream.isConfigured(engine.provider));
    const failures: UpstreamError[] = [];
    for (const engine of engines) {
      try {
        const answer = await engine.search(ctx.upstream, input.query, input.limit, ctx.signal);
        return {
          query: input.query,
          engine: engine.provider.id,
          results: answer.value.slice(0, input.limit).map((hit, index) => ({
            position: index + 1,
            title: hit.title,
            url: hit.url,
            snippet: hit.snippet,
            domain: siteHost(hit.url),
            engine: engine.provider.id,
            ...(hit.publishedAt ? { publishedAt: hit.publishedAt } : {}),
          })),
          source: answer.source,
          ...(failures.length > 0 ? { failedEngines: failures.map((f) => ({ name: f.provider, error: f.message })) } : {}),
        };
      } catch (error) {
        if (!(error instanceof UpstreamError) || ctx.signal.aborted) throw error;
        failures.push(error);
      }
    }
    if (failures.length === 0) throw new ToolError(503, 'upstream_unavailable', 'No web search provider is configured on this gateway. You were not charged.');
    throw combinedFailure('No search engine answered', failures);
  },
});
