// Stack Overflow through the Stack Exchange API v2.3: `GET /2.3/search/advanced?q=...&site=stackoverflow`
// answers the common wrapper `{"items":[question...],"has_more","quota_max","quota_remaining"}`,
// with `backoff` (seconds) when the API wants this method left alone for a while. Question titles
// are HTML-entity encoded. Every error comes as HTTP 400 with
// `{"error_id","error_message","error_name"}`; `throttle_violation` says when to come back in its message.
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer, UpstreamError } from '../upstream-errors.ts';
import { httpUrl } from './http-url.ts';
import { plainTextOf } from './plain-text.ts';
import { isJsonObject, isSuccessStatus, jsonObjectOf, stringMember, type JsonObject } from './response-body.ts';
import type { SearchHit } from './search-hit.ts';

/** Keyless callers get 300 requests per IP per day (`quota_max` 300 in keyless answers). */
const DAILY_QUOTA = 300;
const DAY_MS = 24 * 60 * 60_000;
const BURST = 12;

export const stackexchange = defineProvider({
  id: 'stackexchange',
  name: 'Stack Exchange',
  baseUrl: { env: 'TOOLGATE_STACKEXCHANGE_URL', default: 'https://api.stackexchange.com' },
  timeoutMs: 8_000,
  maxBytes: 1024 * 1024,
  // The daily quota, not the 30 requests/s per-IP ceiling, is what binds: one request every
  // 288 s on average keeps the process within 300 a day, with a burst of 12 for a busy moment.
  // Two in flight stay far below 30/s. Past the burst, calls are refused with Retry-After
  // rather than spending tomorrow's quota; the cache answers repeats meanwhile.
  rateLimit: { requests: BURST, perMs: (DAY_MS / DAILY_QUOTA) * BURST, concurrency: 2, maxQueueMs: 2_000 },
  cacheTtlMs: 10 * 60_000,
  cacheReason: 'The keyless quota is 300 requests a day; questions and their scores change over hours, so ten-minute-old results cost little.',
  staleForMs: 60 * 60_000,
  attribution: 'Stack Exchange (CC BY-SA, content by its authors)',
  termsUrl: 'https://stackoverflow.com/legal/api-terms-of-use',
  docsUrl: 'https://api.stackexchange.com/docs/advanced-search',
});

const SITE = 'stackoverflow';
/** The API's ceiling for `pagesize`. */
const MAX_PAGE_SIZE = 100;
/** Every API error is sent with HTTP 400 (error-handling docs). */
const ERROR_STATUS = 400;
const THROTTLED = 'throttle_violation';

/** A page of results, and the `backoff` the API asked for when it did. */
export interface StackExchangePage {
  hits: SearchHit[];
  backoffSeconds: number | undefined;
}

/**
 * The API's `backoff`: once an answer carries one, the same method must not be called for that
 * many seconds, or the IP is throttled. The layer has no hook for it, so the client keeps it.
 * While it holds, calls are refused locally; this also skips cache hits for those seconds.
 */
export class MethodBackoff {
  private until = 0;

  constructor(private readonly clock: () => number = Date.now) {}

  /** The answer fetched at `fetchedAtMs` asked for `seconds` of quiet (an old cached answer changes nothing). */
  hold(fetchedAtMs: number, seconds: number): void {
    this.until = Math.max(this.until, fetchedAtMs + seconds * 1000);
  }

  /** Whole seconds left to wait, or undefined when calls may go. */
  remainingSeconds(): number | undefined {
    const left = this.until - this.clock();
    return left > 0 ? Math.ceil(left / 1000) : undefined;
  }
}

const searchBackoff = new MethodBackoff();

export async function searchStackExchange(
  caller: ProviderCaller,
  query: string,
  limit: number,
  signal: AbortSignal,
  backoff: MethodBackoff = searchBackoff,
): Promise<ProviderAnswer<SearchHit[]>> {
  const wait = backoff.remainingSeconds();
  if (wait !== undefined) {
    throw new UpstreamError('rate_limited', stackexchange.name, `it asked this gateway to pause searches for ${wait} more s (backoff)`, { retryAfterSeconds: wait });
  }
  const pagesize = Math.min(MAX_PAGE_SIZE, Math.max(1, Math.floor(limit) || 1));
  const request = {
    path: '/2.3/search/advanced',
    query: { q: query, site: SITE, order: 'desc', sort: 'relevance', pagesize, filter: 'default' },
    acceptStatuses: [ERROR_STATUS],
  };
  const answer = await caller.call(stackexchange, request, parseStackExchange, signal);
  const { hits, backoffSeconds } = answer.value;
  if (backoffSeconds !== undefined) backoff.hold(Date.parse(answer.source.fetchedAt), backoffSeconds);
  return { ...answer, value: hits.slice(0, Math.max(0, limit)) };
}

export function parseStackExchange(response: RawResponse): StackExchangePage {
  const body = jsonObjectOf(response, stackexchange.name);
  const errorName = stringMember(body, 'error_name');
  if (errorName !== undefined || body.error_id !== undefined) throw errorOf(body, response.status);
  if (!isSuccessStatus(response.status)) throw badAnswer(stackexchange.name, `it answered HTTP ${response.status}`, response.status);
  if (!Array.isArray(body.items)) throw badAnswer(stackexchange.name, 'its answer has no items list', response.status);
  const hits: SearchHit[] = [];
  for (const item of body.items) {
    const hit = isJsonObject(item) ? hitOf(item, hits.length + 1) : undefined;
    if (hit) hits.push(hit);
  }
  const backoffSeconds = typeof body.backoff === 'number' && body.backoff > 0 ? body.backoff : undefined;
  return { hits, backoffSeconds };
}

function errorOf(body: JsonObject, status: number): UpstreamError {
  const name = stringMember(body, 'error_name') ?? `error ${String(body.error_id)}`;
  const message = stringMember(body, 'error_message');
  if (name === THROTTLED) {
    // "too many requests from this IP, more requests available in 8 seconds"
    const seconds = /available in (\d+) seconds?/.exec(message ?? '')?.[1];
    return new UpstreamError('rate_limited', stackexchange.name, `it is throttling this gateway (${message ?? THROTTLED})`, {
      ...(seconds !== undefined ? { retryAfterSeconds: Math.max(1, Number(seconds)) } : {}),
      upstreamStatus: status,
    });
  }
  return badAnswer(stackexchange.name, `it refused the search (${message ? `${name}: ${message}` : name})`, status);
}

function hitOf(item: JsonObject, position: number): SearchHit | undefined {
  const url = httpUrl(item.link);
  if (!url) return undefined;
  const publishedAt = isoFromUnixSeconds(item.creation_date);
  const extra: Record<string, number | boolean> = {};
  if (typeof item.score === 'number') extra.score = item.score;
  if (typeof item.answer_count === 'number') extra.answers = item.answer_count;
  if (typeof item.is_answered === 'boolean') extra.answered = item.is_answered;
  return {
    title: plainTextOf(stringMember(item, 'title') ?? '') || url,
    url,
    // The default filter carries no body or excerpt.
    snippet: '',
    position,
    ...(publishedAt ? { publishedAt } : {}),
    ...(Object.keys(extra).length > 0 ? { extra } : {}),
  };
}

function isoFromUnixSeconds(value: unknown): string | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) return undefined;
  return new Date(value * 1000).toISOString();
}
