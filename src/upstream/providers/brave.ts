// Brave Search API, web results: `GET /res/v1/web/search?q=...&count=...` with the subscription
// token in `X-Subscription-Token`. Answers `{"type":"search","web":{"results":[...]}}`; refusals
// come as `{"type":"ErrorResponse","error":{"code","detail","status",...}}`.
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { httpUrl } from './http-url.ts';
import { isoFromDateTime } from './iso-time.ts';
import { plainTextOf } from './plain-text.ts';
import { isJsonObject, isSuccessStatus, jsonObjectOf, stringMember, type JsonObject } from './response-body.ts';
import type { SearchHit } from './search-hit.ts';

export const brave = defineProvider({
  id: 'brave',
  name: 'Brave Search',
  baseUrl: { env: 'TOOLGATE_BRAVE_URL', default: 'https://api.search.brave.com' },
  apiKey: { env: 'TOOLGATE_BRAVE_API_KEY', in: 'header', name: 'x-subscription-token' },
  timeoutMs: 8_000,
  maxBytes: 1024 * 1024,
  // The free plan allows 1 request per second (X-RateLimit-Policy: 1;w=1).
  rateLimit: { requests: 1, perMs: 1_000, concurrency: 1, maxQueueMs: 3_000 },
  cacheTtlMs: 10 * 60_000,
  cacheReason: 'Every Brave request counts against the plan quota; results a few minutes old cost little freshness.',
  staleForMs: 60 * 60_000,
  attribution: 'Powered by Brave Search',
  termsUrl: 'https://api-dashboard.search.brave.com/terms-of-service',
  docsUrl: 'https://api-dashboard.search.brave.com/app/documentation/web-search/responses',
});

/** The API's ceiling for `count`. */
const MAX_COUNT = 20;
/** Refusals that carry an ErrorResponse worth reading (429 stays with the upstream layer's rate limiting). */
const ERROR_STATUSES = [400, 401, 403, 404, 422] as const;

export async function searchBrave(caller: ProviderCaller, query: string, limit: number, signal: AbortSignal): Promise<ProviderAnswer<SearchHit[]>> {
  const count = Math.min(MAX_COUNT, Math.max(1, Math.floor(limit) || 1));
  const answer = await caller.call(
    brave,
    { path: '/res/v1/web/search', query: { q: query, count, result_filter: 'web' }, acceptStatuses: ERROR_STATUSES },
    parseBrave,
    signal,
  );
  return { ...answer, value: answer.value.slice(0, Math.max(0, limit)) };
}

export function parseBrave(response: RawResponse): SearchHit[] {
  let body: JsonObject;
  try {
    body = jsonObjectOf(response, brave.name);
  } catch (error) {
    if (!isSuccessStatus(response.status)) throw badAnswer(brave.name, `it answered HTTP ${response.status}`, response.status);
    throw error;
  }
  if (body.type === 'ErrorResponse') throw refusalOf(body, response.status);
  if (!isSuccessStatus(response.status)) throw badAnswer(brave.name, `it answered HTTP ${response.status}`, response.status);
  if (body.type !== 'search') throw badAnswer(brave.name, 'its answer is not a web search response (type is not "search")');
  // `web` is absent when there are no web results.
  if (body.web === undefined) return [];
  if (!isJsonObject(body.web) || !Array.isArray(body.web.results)) throw badAnswer(brave.name, 'its web block has no results list');
  const hits: SearchHit[] = [];
  for (const result of body.web.results) {
    const hit = isJsonObject(result) ? hitOf(result, hits.length + 1) : undefined;
    if (hit) hits.push(hit);
  }
  return hits;
}

function refusalOf(body: JsonObject, httpStatus: number) {
  const error = isJsonObject(body.error) ? body.error : {};
  const code = stringMember(error, 'code');
  const detail = stringMember(error, 'detail');
  const status = typeof error.status === 'number' ? error.status : httpStatus;
  const what = [code, detail].filter(Boolean).join(': ') || 'no detail given';
  return badAnswer(brave.name, `it refused the request (${what})`, status);
}

function hitOf(result: JsonObject, position: number): SearchHit | undefined {
  const url = httpUrl(result.url);
  if (!url) return undefined;
  const pageAge = stringMember(result, 'page_age');
  const publishedAt = pageAge ? isoFromDateTime(pageAge) : undefined;
  const extra: Record<string, string> = {};
  const age = stringMember(result, 'age');
  if (age) extra.age = age;
  const source = isJsonObject(result.profile) ? stringMember(result.profile, 'name') : undefined;
  if (source) extra.source = source;
  return {
    title: plainTextOf(stringMember(result, 'title') ?? '') || url,
    url,
    snippet: plainTextOf(stringMember(result, 'description') ?? ''),
    position,
    ...(publishedAt ? { publishedAt } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}
