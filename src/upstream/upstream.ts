// The one way a tool reaches a provider. Per provider: its base URL setting, a per-request
// timeout and size cap, admission (concurrency + rate), retries with backoff for idempotent
// requests on network errors, 429 and 503 (Retry-After honoured within the call's deadline), and
// a TTL cache that serves a stale answer, marked as such, only when the provider fails. Every
// failure leaves as an UpstreamError (502/503/504, naming the provider), so it is never charged.
import { RawFetchError } from './http/http-types.ts';
import type { RawRequest, RawResponse, ResolvedAddress } from './http/http-types.ts';
import type { ProviderAnswer, ProviderCaller, ProviderRequest, ResponseParser } from './provider-call.ts';
import type { ProviderDefinition, SourceNote } from './provider.ts';
import { AdmissionRefused, RateLimiter, sleep } from './rate-limiter.ts';
import { retryAfterMs } from './retry-after.ts';
import { TtlCache } from './ttl-cache.ts';
import { UpstreamError } from './upstream-errors.ts';
import type { ProviderHealth } from './provider-health.ts';
import { ProviderStats } from './provider-health.ts';

export type RawFetch = (request: RawRequest) => Promise<RawResponse>;

/** Checks a URL a provider redirected to (the SSRF guard's rules for caller URLs) and gives the address to connect to. */
export type RedirectGuard = (url: URL, deadline: number, signal: AbortSignal) => Promise<{ ok: true; pinned: ResolvedAddress } | { ok: false; message: string }>;

export interface UpstreamSettings {
  /** `User-Agent` sent to every provider: names the product and a contact. */
  userAgent: string;
  /** Base URL per provider id, as configured (unset: the provider's default, if it has one; 'off': none). */
  baseUrls: Readonly<Record<string, string | undefined>>;
  /** Secret per provider id, for providers that need one. */
  apiKeys: Readonly<Record<string, string | undefined>>;
  /** One per-request timeout for every provider, instead of each one's declared timeout. */
  timeoutMs?: number;
}

interface CachedAnswer {
  value: unknown;
  url: string;
  /** The provider's Last-Modified, to ask "changed since?" once the entry is no longer fresh. */
  lastModified?: string;
}

/** What a revalidation gives when the provider answers 304 Not Modified. */
const NOT_MODIFIED: unique symbol = Symbol('not modified');

interface ProviderState {
  limiter: RateLimiter;
  cache: TtlCache<CachedAnswer>;
  stats: ProviderStats;
}

const MAX_ATTEMPTS = 3;
const FIRST_BACKOFF_MS = 200;
/**
 * The longest a call waits for one provider before trying again. A provider that asks for more
 * (Retry-After) is not asked sooner: the call fails at once with its Retry-After, so tools that
 * fall through to another provider still have time to.
 */
const MAX_RETRY_WAIT_MS = 3_000;
/** Retry-After to give callers when a provider is down and said nothing about when to come back. */
const UNAVAILABLE_RETRY_AFTER_S = 10;
const RATE_LIMITED_RETRY_AFTER_S = 30;
const CACHE_ENTRIES_PER_PROVIDER = 2_000;
/** The longest a provider's own freshness (Expires, next publication) keeps an answer without asking again. */
const MAX_FRESH_MS = 24 * 60 * 60_000;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export class Upstream {
  private readonly states = new Map<string, ProviderState>();

  constructor(
    readonly providers: readonly ProviderDefinition[],
    private readonly settings: UpstreamSettings,
    private readonly fetchRaw: RawFetch,
    private readonly clock: () => number = Date.now,
    /** Without one, a redirect a request asked to follow is refused. */
    private readonly redirectGuard?: RedirectGuard,
  ) {}

  baseUrlOf(provider: ProviderDefinition): string | undefined {
    const configured = this.settings.baseUrls[provider.id];
    if (configured === 'off') return undefined;
    return configured ?? provider.baseUrl.default;
  }

  isConfigured(provider: ProviderDefinition): boolean {
    return this.baseUrlOf(provider) !== undefined && (!provider.apiKey || provider.apiKey.optional === true || Boolean(this.settings.apiKeys[provider.id]));
  }

  /** A caller bound to one tool call's deadline (epoch ms): no wait, retry or request outlives it. */
  forCall(deadline: number): ProviderCaller {
    return {
      isConfigured: (provider) => this.isConfigured(provider),
      call: (provider, request, parse, signal) => this.call(provider, request, parse, signal, deadline),
    };
  }

  health(): ProviderHealth[] {
    return this.providers.map((provider) => ({
      id: provider.id,
      name: provider.name,
      configured: this.isConfigured(provider),
      ...(this.states.get(provider.id)?.stats.snapshot() ?? ProviderStats.empty()),
    }));
  }

  private state(provider: ProviderDefinition): ProviderState {
    let state = this.states.get(provider.id);
    if (!state) {
      state = {
        limiter: new RateLimiter(provider.rateLimit, this.clock),
        cache: new TtlCache(CACHE_ENTRIES_PER_PROVIDER),
        stats: new ProviderStats(),
      };
      this.states.set(provider.id, state);
    }
    return state;
  }

  private async call<T>(
    declared: ProviderDefinition,
    request: ProviderRequest,
    parse: ResponseParser<T>,
    signal: AbortSignal,
    deadline: number,
  ): Promise<ProviderAnswer<T>> {
    // The layer's own list is the authority on limits (a client passes the module's declaration).
    const provider = this.providers.find((p) => p.id === declared.id) ?? declared;
    if (!this.isConfigured(provider)) {
      const missing = this.baseUrlOf(provider) === undefined ? provider.baseUrl.env : provider.apiKey?.env;
      throw new UpstreamError('unavailable', provider.name, `not configured on this gateway (${missing} is not set)`);
    }
    const state = this.state(provider);
    const url = this.requestUrl(provider, request);
    const publicUrl = withoutSecrets(url, provider.apiKey?.in === 'query' ? provider.apiKey.name : undefined);
    const method = request.method ?? 'GET';
    const cacheable = request.cache !== false && provider.cacheTtlMs > 0;
    const cacheKey = `${method} ${url.toString()} ${request.form ? new URLSearchParams(request.form as Record<string, string>).toString() : ''}${request.json !== undefined ? JSON.stringify(request.json) : ''}`;
    const cached = cacheable ? state.cache.get(cacheKey, this.clock()) : undefined;
    if (cached && cached.freshUntil > this.clock()) {
      state.stats.cacheHit();
      return { value: cached.value.value as T, source: this.note(provider, cached.value.url, cached.fetchedAt) };
    }

    // An entry past its freshness whose provider said when it last changed is revalidated: a 304
    // confirms it without the body (MET Norway asks clients to do this).
    const since = method === 'GET' ? cached?.value.lastModified : undefined;
    const asked: ProviderRequest = since
      ? { ...request, headers: { ...request.headers, 'if-modified-since': since }, acceptStatuses: [...(request.acceptStatuses ?? []), 304] }
      : request;
    const parseOrConfirm = (response: RawResponse): T | typeof NOT_MODIFIED => (since && response.status === 304 ? NOT_MODIFIED : parse(response));

    try {
      const { value: parsed, response } = await this.fetchParsed(provider, state, { url, method, request: asked, parse: parseOrConfirm, signal, deadline });
      const confirmed = parsed === NOT_MODIFIED && cached !== undefined;
      const value = (confirmed ? cached.value.value : parsed) as T;
      const fetchedAt = this.clock();
      state.stats.success(fetchedAt);
      if (cacheable) {
        const freshMs = request.freshFor?.(response, fetchedAt);
        const ttlMs = freshMs === undefined || !Number.isFinite(freshMs) ? provider.cacheTtlMs : Math.min(MAX_FRESH_MS, Math.max(0, freshMs));
        const lastModified = response.headers['last-modified'] ?? (confirmed ? cached.value.lastModified : undefined);
        state.cache.set(cacheKey, { value, url: publicUrl, ...(lastModified ? { lastModified } : {}) }, fetchedAt, ttlMs, provider.staleForMs);
      }
      return { value, source: this.note(provider, publicUrl, fetchedAt) };
    } catch (error) {
      const failure = asUpstreamError(provider, error, signal);
      state.stats.failure(this.clock(), failure.message);
      if (cached) {
        state.stats.staleServed();
        return { value: cached.value.value as T, source: { ...this.note(provider, cached.value.url, cached.fetchedAt), stale: true } };
      }
      throw failure;
    }
  }

  private async fetchParsed<T>(
    provider: ProviderDefinition,
    state: ProviderState,
    call: { url: URL; method: 'GET' | 'POST'; request: ProviderRequest; parse: ResponseParser<T>; signal: AbortSignal; deadline: number },
  ): Promise<{ value: T; response: RawResponse }> {
    const idempotent = call.method === 'GET' || call.request.idempotent === true;
    for (let attempt = 1; ; attempt += 1) {
      let release: () => void;
      try {
        release = await state.limiter.acquire(call.deadline, call.signal);
      } catch (error) {
        if (error instanceof AdmissionRefused) {
          throw new UpstreamError('rate_limited', provider.name, `too many requests to this provider right now (${error.message})`, {
            retryAfterSeconds: Math.max(1, Math.ceil(error.retryAfterMs / 1000)),
          });
        }
        throw error;
      }
      let response: RawResponse;
      try {
        const remaining = call.deadline - this.clock();
        if (remaining <= 0) throw new UpstreamError('timeout', provider.name, 'no time was left in this call to ask it');
        const timeoutMs = Math.min(this.timeoutOf(provider), remaining);
        try {
          response = await this.send(provider, call, timeoutMs);
        } catch (error) {
          if (!(error instanceof RawFetchError)) throw error;
          const failure = rawFailure(provider, error, timeoutMs);
          if (idempotent && retryable(error) && (await this.backoff(attempt, undefined, call))) continue;
          throw failure;
        }
      } finally {
        release();
      }

      const accepted = call.request.acceptStatuses?.includes(response.status) ?? false;
      if (!accepted && (response.status === 429 || response.status === 503)) {
        const waitMs = retryAfterMs(response.headers['retry-after'], this.clock());
        if (response.status === 429 && waitMs !== undefined) state.limiter.pauseUntil(this.clock() + waitMs);
        if (idempotent && (await this.backoff(attempt, waitMs, call))) continue;
        const seconds = waitMs !== undefined ? Math.max(1, Math.ceil(waitMs / 1000)) : response.status === 429 ? RATE_LIMITED_RETRY_AFTER_S : UNAVAILABLE_RETRY_AFTER_S;
        throw response.status === 429
          ? new UpstreamError('rate_limited', provider.name, 'it is rate-limiting this gateway (HTTP 429)', { retryAfterSeconds: seconds, upstreamStatus: 429 })
          : new UpstreamError('unavailable', provider.name, 'it is temporarily unavailable (HTTP 503)', { retryAfterSeconds: seconds, upstreamStatus: 503 });
      }
      if (!accepted && (response.status < 200 || response.status > 299)) {
        throw new UpstreamError('bad_answer', provider.name, `it answered HTTP ${response.status}`, { upstreamStatus: response.status });
      }
      if (response.truncated) {
        throw new UpstreamError('bad_answer', provider.name, `its answer was larger than the ${provider.maxBytes}-byte limit`);
      }
      try {
        return { value: call.parse(response), response };
      } catch (error) {
        if (error instanceof UpstreamError) throw error;
        throw new UpstreamError('bad_answer', provider.name, `its answer could not be read (${error instanceof Error ? error.message : String(error)})`);
      }
    }
  }

  /** One attempt: the request, and the redirects it may follow, within `timeoutMs` together. */
  private async send(
    provider: ProviderDefinition,
    call: { url: URL; method: 'GET' | 'POST'; request: ProviderRequest; signal: AbortSignal; deadline: number },
    timeoutMs: number,
  ): Promise<RawResponse> {
    const until = this.clock() + timeoutMs;
    const body = this.formBody(provider, call.request) ?? (call.request.json !== undefined ? JSON.stringify(call.request.json) : undefined);
    let url = call.url;
    let method = call.method;
    let headers = this.headers(provider, call.request);
    let pinnedAddress: ResolvedAddress | undefined;
    for (let hops = 0; ; hops += 1) {
      const response = await this.fetchRaw({
        url,
        method,
        headers,
        ...(body !== undefined && method === 'POST' ? { body } : {}),
        ...(pinnedAddress ? { pinnedAddress } : {}),
        timeoutMs: Math.max(1, until - this.clock()),
        maxBytes: provider.maxBytes,
        signal: call.signal,
      });
      const location = response.headers.location;
      if (!REDIRECT_STATUSES.has(response.status) || location === undefined || hops >= (call.request.followRedirects ?? 0)) return response;
      let next: URL;
      try {
        next = new URL(location, url);
      } catch {
        throw new UpstreamError('bad_answer', provider.name, `it redirected to an invalid location (${location.slice(0, 200)})`);
      }
      if (!this.redirectGuard) throw new UpstreamError('bad_answer', provider.name, `it redirected to ${next.origin}, and this gateway follows no provider redirects`);
      const verdict = await this.redirectGuard(next, Math.min(until, call.deadline), call.signal);
      if (!verdict.ok) throw new UpstreamError('bad_answer', provider.name, `it redirected to ${next.origin}, which the SSRF guard refuses (${verdict.message})`);
      pinnedAddress = verdict.pinned;
      // What was meant for the provider (its key, our form body) does not go to another origin.
      if (next.origin !== url.origin) headers = { 'user-agent': headers['user-agent'] ?? '', accept: headers.accept ?? 'application/json' };
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && method === 'POST')) method = 'GET';
      url = next;
    }
  }

  /** Waits before another attempt if one fits in the deadline; false when it does not. */
  private async backoff(attempt: number, suggestedMs: number | undefined, call: { deadline: number; signal: AbortSignal }): Promise<boolean> {
    if (attempt >= MAX_ATTEMPTS) return false;
    const base = FIRST_BACKOFF_MS * 2 ** (attempt - 1);
    const waitMs = suggestedMs ?? base + Math.random() * base;
    if (waitMs > MAX_RETRY_WAIT_MS) return false;
    // Leave the next attempt at least its first backoff's worth of time to answer.
    if (this.clock() + waitMs + FIRST_BACKOFF_MS >= call.deadline) return false;
    await sleep(waitMs, call.signal);
    return true;
  }

  private timeoutOf(provider: ProviderDefinition): number {
    return this.settings.timeoutMs ?? provider.timeoutMs;
  }

  private requestUrl(provider: ProviderDefinition, request: ProviderRequest): URL {
    let base = this.baseUrlOf(provider) ?? '';
    for (const [name, value] of Object.entries(request.baseUrlParams ?? {})) base = base.replaceAll(`{${name}}`, encodeURIComponent(value));
    const url = new URL(base);
    url.pathname = `${url.pathname.replace(/\/+$/, '')}${request.path}`;
    for (const [name, value] of Object.entries(request.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const key = this.keyOf(provider, 'query');
    if (key) url.searchParams.set(key.name, key.value);
    return url;
  }

  private headers(provider: ProviderDefinition, request: ProviderRequest): Record<string, string> {
    const key = this.keyOf(provider, 'header');
    return {
      'user-agent': this.settings.userAgent,
      accept: 'application/json',
      ...(request.form ? { 'content-type': 'application/x-www-form-urlencoded' } : {}),
      ...(request.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...request.headers,
      ...(key ? { [key.name]: key.value } : {}),
    };
  }

  private formBody(provider: ProviderDefinition, request: ProviderRequest): string | undefined {
    if (!request.form) return undefined;
    const key = this.keyOf(provider, 'form');
    return new URLSearchParams({ ...request.form, ...(key ? { [key.name]: key.value } : {}) }).toString();
  }

  /** The provider's configured key, when it is sent in that place. */
  private keyOf(provider: ProviderDefinition, place: 'header' | 'query' | 'form'): { name: string; value: string } | undefined {
    const value = this.settings.apiKeys[provider.id];
    return provider.apiKey?.in === place && value ? { name: provider.apiKey.name, value } : undefined;
  }

  private note(provider: ProviderDefinition, url: string, fetchedAt: number): SourceNote {
    return { provider: provider.id, name: provider.name, url, fetchedAt: new Date(fetchedAt).toISOString(), attribution: provider.attribution };
  }
}

function retryable(error: RawFetchError): boolean {
  return error.failure === 'connect_failed' || error.failure === 'reset' || error.failure === 'dns_failed';
}

function rawFailure(provider: ProviderDefinition, error: RawFetchError, timeoutMs: number): UpstreamError {
  switch (error.failure) {
    case 'timeout':
      return new UpstreamError('timeout', provider.name, `it did not answer within ${timeoutMs} ms`);
    case 'aborted':
      return new UpstreamError('timeout', provider.name, 'the call ended before it answered');
    case 'protocol_error':
      return new UpstreamError('bad_answer', provider.name, `its answer was not valid HTTP (${error.message})`);
    default:
      return new UpstreamError('unavailable', provider.name, `it could not be reached (${error.failure.replace('_', ' ')})`, {
        retryAfterSeconds: UNAVAILABLE_RETRY_AFTER_S,
      });
  }
}

function asUpstreamError(provider: ProviderDefinition, error: unknown, signal: AbortSignal): UpstreamError {
  if (error instanceof UpstreamError) return error;
  if (signal.aborted) return new UpstreamError('timeout', provider.name, 'the call ended before it answered');
  throw error;
}

/** The request as it may be shown: query parameters that look like secrets removed. */
function withoutSecrets(url: URL, keyParameter: string | undefined): string {
  const shown = new URL(url);
  for (const name of [...shown.searchParams.keys()]) {
    if (name === keyParameter || /key|token|secret|password|sig/i.test(name)) shown.searchParams.set(name, 'redacted');
  }
  return shown.toString();
}
