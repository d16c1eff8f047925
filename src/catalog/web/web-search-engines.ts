// The web search providers, in the order search_web prefers them: an operator's own SearXNG
// instance, then the Brave Search API (with a key), then DuckDuckGo's HTML endpoint (keyless).
import type { ProviderAnswer, ProviderCaller } from '../../upstream/provider-call.ts';
import type { ProviderDefinition } from '../../upstream/provider.ts';
import { brave, searchBrave } from '../../upstream/providers/brave.ts';
import { duckduckgo, searchDuckDuckGo } from '../../upstream/providers/duckduckgo.ts';
import type { SearchHit } from '../../upstream/providers/search-hit.ts';
import { searchSearxng, searxng } from '../../upstream/providers/searxng.ts';

export interface SearchEngine {
  provider: ProviderDefinition;
  search(caller: ProviderCaller, query: string, limit: number, signal: AbortSignal): Promise<ProviderAnswer<SearchHit[]>>;
}

export const webSearchEngines: readonly SearchEngine[] = [
  { provider: searxng, search: searchSearxng },
  { provider: brave, search: searchBrave },
  { provider: duckduckgo, search: searchDuckDuckGo },
];
