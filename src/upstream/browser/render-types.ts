// The shapes a page render works with. Every request a rendered page makes is handed to a
// ResourceFetcher (in the gateway: the SSRF-guarded fetch), so Chromium itself never connects anywhere.

/** One request the page made, as the fetcher receives it. */
export interface ResourceRequest {
  url: string;
  method: string;
  headers: Record<string, string>;
  postData?: Buffer;
  /** Chromium's resource type: document, script, stylesheet, xhr, fetch, … */
  resourceType: string;
  /** Aborted when the render ends (done, timed out or aborted): a fetch still running is no longer wanted. */
  signal: AbortSignal;
}

/** The answer to one request, after the fetcher followed any redirects itself. */
export interface ResourceResponse {
  status: number;
  headers: Record<string, string>;
  /** The decoded body (no content-encoding left on it). */
  body: Buffer;
  /** The URL of this response: the last hop when redirects were followed. */
  url: string;
}

/**
 * Fetches one resource for the page. Throwing refuses the request: the page sees a blocked request.
 * A thrown UrlRefusedError (the SSRF guard's refusal) counts as refused, anything else as failed.
 */
export type ResourceFetcher = (request: ResourceRequest) => Promise<ResourceResponse>;

export interface RenderOptions {
  fetchResource: ResourceFetcher;
  /** For the whole render: waiting for a free slot, launching Chromium, loading and settling. */
  timeoutMs: number;
  signal?: AbortSignal;
  userAgent?: string;
  /** Requests the page may make (the document included); beyond it they are refused. Default 150. */
  maxResources?: number;
  /** The main document, already fetched by the caller (through the guard): used as it is, not fetched again. */
  mainDocument?: ResourceResponse;
}

export interface ResourceCounts {
  /** Every request the page made, WebSockets included. */
  requested: number;
  /** Not fetched by policy: refused by the fetcher's guard, over maxResources, or a WebSocket. */
  refused: number;
  /** The fetcher tried and failed (timeout, connection error, …). */
  failed: number;
  /** Images, media and fonts: not fetched, as they add nothing to the text. */
  skipped: number;
}

/** Why the wait after DOMContentLoaded ended; 'deadline' means the page may still have been filling in. */
export type SettledBy = 'network_idle' | 'text_steady' | 'deadline';

export interface RenderedPage {
  /** document.documentElement.outerHTML after the scripts ran. */
  html: string;
  /** The main document's URL after redirects. */
  finalUrl: string;
  title: string;
  /** HTTP status of the main document. */
  status: number;
  resources: ResourceCounts;
  timing: { renderMs: number };
  settledBy: SettledBy;
}
