// What a provider client asks of the upstream layer: one request to one provider, answered with a
// parsed value and the note of where it came from. The layer applies the provider's base URL,
// timeout, size cap, rate limit, retries and cache; the client only builds the request and parses
// the provider's real format.
import type { RawResponse } from './http/http-types.ts';
import type { ProviderDefinition, SourceNote } from './provider.ts';

export interface ProviderRequest {
  /** Appended to the path of the provider's base URL: "/search". */
  path: string;
  /** Values for `{name}` placeholders in the base URL, e.g. { lang: 'en' } for "https://{lang}.wikipedia.org". */
  baseUrlParams?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, string | number | boolean | undefined>>;
  method?: 'GET' | 'POST';
  headers?: Readonly<Record<string, string>>;
  /** A form body (application/x-www-form-urlencoded) for POST. */
  form?: Readonly<Record<string, string>>;
  /** A JSON body (application/json) for POST, e.g. a JSON-RPC request. Part of the cache key. */
  json?: unknown;
  /**
   * True: a POST that only reads (a JSON-RPC `eth_call`), so a dropped connection, a 429 or a 503
   * may be retried like a GET. Default: only GET is retried.
   */
  idempotent?: boolean;
  /** false: never served from or stored in the cache. */
  cache?: boolean;
  /** Statuses handed to the parser instead of failing the call (e.g. 404 as a "not found" answer). */
  acceptStatuses?: readonly number[];
  /**
   * How long this answer stays fresh in the cache (ms from `now`), when the provider says so itself
   * (an Expires header, a next publication time); undefined: the provider's cacheTtlMs.
   */
  freshFor?: (response: RawResponse, now: number) => number | undefined;
  /**
   * Redirects (301/302/303/307/308) followed at most, to any host (a directory service pointing at
   * the registry that holds the answer). Each hop after the first passes the SSRF guard. Default 0:
   * a redirect is an answer like any other status.
   */
  followRedirects?: number;
}

/**
 * Turns the provider's answer into a value, or throws `badAnswer(...)` (upstream-errors.ts) when
 * it is not a usable answer: malformed, or a 200 that is really an error (a quota notice, a block page).
 */
export type ResponseParser<T> = (response: RawResponse) => T;

export interface ProviderAnswer<T> {
  value: T;
  source: SourceNote;
}

export interface ProviderCaller {
  /** Whether the provider has what it needs (a base URL; a key where it needs one). */
  isConfigured(provider: ProviderDefinition): boolean;
  call<T>(provider: ProviderDefinition, request: ProviderRequest, parse: ResponseParser<T>, signal: AbortSignal): Promise<ProviderAnswer<T>>;
}
