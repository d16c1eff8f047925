// SearXNG: a metasearch instance the operator runs, asked through its search API
// (`GET /search?q=...&format=json`). The instance must list `json` under `search.formats` in its
// settings.yml; otherwise it refuses the format with 403.
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { httpUrl } from './http-url.ts';
import { isoFromDateTime } from './iso-time.ts';
import { squashSpace } from './plain-text.ts';
import { isJsonObject, jsonObjectOf, looksLikeHtml, stringMember, type JsonObject } from './response-body.ts';
import type { SearchHit } from './search-hit.ts';

export const searxng = defineProvider({
  id: 'searxng',
  name: 'SearXNG',
  baseUrl: { env: 'TOOLGATE_SEARXNG_URL' },
  timeoutMs: 8_000,
  maxBytes: 2 * 1024 * 1024,
  // Each search fans out to every engine the instance has enabled, so it is asked sparingly.
  rateLimit: { requests: 2, perMs: 1_000, concurrency: 2, maxQueueMs: 2_000 },
  cacheTtlMs: 10 * 60_000,
  cacheReason: 'Web results for a query change over hours, not minutes; ten minutes spares the instance and its engines repeats.',
  staleForMs: 60 * 60_000,
  attribution: 'Results via SearXNG',
  termsUrl: 'https://docs.searxng.org/admin/settings/settings_search.html',
  docsUrl: 'https://docs.searxng.org/dev/search_api.html',
});

/** What SearXNG answers when the requested output format is not enabled (`flask.abort(403)`). */
const FORMAT_REFUSED = 403;

export async function searchSearxng(caller: ProviderCaller, query: string, limit: number, signal: AbortSignal): Promise<ProviderAnswer<SearchHit[]>> {
  // The search API has no result-count parameter: the whole first page is parsed (and cached) and cut here.
  const answer = await caller.call(searxng, { path: '/search', query: { q: query, format: 'json' }, acceptStatuses: [FORMAT_REFUSED] }, parseSearxng, signal);
  return { ...answer, value: answer.value.slice(0, Math.max(0, limit)) };
}

export function parseSearxng(response: RawResponse): SearchHit[] {
  if (response.status === FORMAT_REFUSED) {
    throw badAnswer(searxng.name, 'the instance does not allow format=json (HTTP 403; add json to search.formats in its settings.yml)', FORMAT_REFUSED);
  }
  if (looksLikeHtml(response)) {
    throw badAnswer(searxng.name, 'the instance does not allow format=json (it answered with an HTML page)', response.status);
  }
  const body = jsonObjectOf(response, searxng.name);
  const results = body.results;
  if (!Array.isArray(results)) {
    const error = stringMember(body, 'error');
    throw badAnswer(searxng.name, error ? `it did not search (${error})` : 'its answer has no results list', response.status);
  }
  const failedEngines = unresponsiveEngines(body.unresponsive_engines);
  // No results because every engine failed is an outage, not an answer.
  if (results.length === 0 && failedEngines.length > 0) {
    throw badAnswer(searxng.name, `every engine failed (${failedEngines.join('; ')})`);
  }
  const hits: SearchHit[] = [];
  for (const result of results) {
    const hit = isJsonObject(result) ? hitOf(result, hits.length + 1) : undefined;
    if (hit) hits.push(hit);
  }
  return hits;
}

/** `unresponsive_engines` is a list of `[engine, reason]` pairs: "duckduckgo: CAPTCHA". */
function unresponsiveEngines(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.map((entry) => (Array.isArray(entry) ? entry.map(String).join(': ') : String(entry)));
}

function hitOf(result: JsonObject, position: number): SearchHit | undefined {
  const url = httpUrl(result.url);
  if (!url) return undefined;
  const publishedDate = stringMember(result, 'publishedDate');
  const publishedAt = publishedDate ? isoFromDateTime(publishedDate) : undefined;
  const extra = extraOf(result);
  return {
    title: squashSpace(stringMember(result, 'title') ?? '') || url,
    url,
    snippet: squashSpace(stringMember(result, 'content') ?? ''),
    position,
    ...(publishedAt ? { publishedAt } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

function extraOf(result: JsonObject): Record<string, string | number> {
  const extra: Record<string, string | number> = {};
  const engines = Array.isArray(result.engines) ? result.engines.filter((engine): engine is string => typeof engine === 'string') : [];
  const engine = engines.length > 0 ? engines.join(',') : stringMember(result, 'engine');
  if (engine) extra.engines = engine;
  if (typeof result.score === 'number' && Number.isFinite(result.score)) extra.score = result.score;
  const category = stringMember(result, 'category');
  if (category) extra.category = category;
  return extra;
}
