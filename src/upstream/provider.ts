// The one declaration of an upstream provider: where it lives (a setting), how long and how much
// it may take, how often we may ask, how long its answers stay fresh, and what its terms require
// us to say. From the list of these come the README's configuration rows, the start-up check of
// the settings, the health view of each provider and the metrics labels.

export interface RateLimit {
  /** Requests allowed per `perMs` window, for the whole process. */
  requests: number;
  perMs: number;
  /** Requests in flight at once. */
  concurrency: number;
  /**
   * How long a call may wait in the queue for its turn before it is refused with 503 and
   * Retry-After (never longer than the call's own time budget).
   */
  maxQueueMs: number;
}

export interface ApiKey {
  env: string;
  /** Sent as a request header, a query parameter or a field of the form body, under `name`. */
  in: 'header' | 'query' | 'form';
  name: string;
  /** True: the provider works without it (the key only raises a quota); else the provider is off until it is set. */
  optional?: boolean;
}

export interface ProviderDefinition {
  /** Stable id, used in settings, metrics and the `source` of answers: "searxng". */
  id: string;
  /** What the caller reads in messages and attributions: "SearXNG". */
  name: string;
  /** The setting that holds the base URL, and its default. No default: the provider is off until configured. */
  baseUrl: { env: string; default?: string };
  /** A secret (or contact) the provider takes: which setting holds it and how it is sent. */
  apiKey?: ApiKey;
  /** Per request (one attempt). */
  timeoutMs: number;
  /** Largest answer read; a larger one is cut at the cap and refused as a bad answer. */
  maxBytes: number;
  rateLimit: RateLimit;
  /** How long an answer is served from the cache without asking again (0: never cached). */
  cacheTtlMs: number;
  /** Why that TTL (the README and docs say it). */
  cacheReason: string;
  /** How long past its TTL an entry may still be served, marked stale, when the provider fails. */
  staleForMs: number;
  /** What every answer built on this provider must carry (its terms, or plain courtesy). */
  attribution: string;
  /** The provider's terms or API policy, for operators. */
  termsUrl: string;
  /** Where the response format this client parses is documented. */
  docsUrl: string;
}

export function defineProvider(definition: ProviderDefinition): ProviderDefinition {
  return definition;
}

/** What an answer says about where its data came from. */
export interface SourceNote {
  provider: string;
  name: string;
  /** The request, without keys. */
  url: string;
  /** When the provider answered (for a cached answer: when it was fetched). */
  fetchedAt: string;
  attribution: string;
  /** Present and true when the provider failed and this is an older answer from the cache. */
  stale?: true;
}
