// Answers every request a rendered page makes from the ResourceFetcher (our guarded fetch) with
// route.fulfill, so Chromium never opens a connection of its own; refuses WebSockets outright.
import type { BrowserContext, Request, Route } from 'playwright-core';
import { UrlRefusedError } from '../guard/guarded-fetch.ts';
import type { ResourceCounts, ResourceFetcher, ResourceRequest, ResourceResponse } from './render-types.ts';

/** Not needed for the text of a page; skipping them saves time, memory and fetches. */
const SKIPPED_TYPES = new Set(['image', 'media', 'font', 'texttrack', 'manifest']);

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** The body is handed over decoded and whole, so these would describe it wrongly. */
const HOP_HEADERS = new Set(['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'keep-alive']);

export interface RoutingOptions {
  fetchResource: ResourceFetcher;
  /** Fetches handed to fetchResource at most; later requests are refused. */
  maxResources: number;
  /** Ends the render: fetches still running are told to stop, and new requests are refused. */
  signal: AbortSignal;
}

/** What the render, the settle wait and the result need to know about the page's requests. */
export interface RoutedTraffic {
  readonly counts: Readonly<ResourceCounts>;
  /** Fetches started and not answered yet. */
  inFlight(): number;
  /** When a fetch last started or finished (ms since epoch). */
  lastActivityAt(): number;
  /**
   * Fetches the main document before the browser asks for it, so that the page can then be opened
   * at the URL the redirects ended on (its address, relative links and client-side routing need
   * it): Chromium's own request for that URL gets this answer. Throws the fetcher's error.
   */
  /** Fetches the main document through the fetcher, or takes the one the caller already has. */
  fetchMainDocument(url: string, headers: Record<string, string>, fetched?: ResourceResponse): Promise<{ finalUrl: string }>;
}

export async function routeThroughFetcher(context: BrowserContext, options: RoutingOptions): Promise<RoutedTraffic> {
  const counts: ResourceCounts = { requested: 0, refused: 0, failed: 0, skipped: 0 };
  let inFlight = 0;
  let fetchesStarted = 0;
  let lastActivityAt = Date.now();
  let mainDocument: { url: string; response: ResourceResponse } | undefined;

  /** Counts the request; undefined when it may be fetched, else the reason it may not. */
  const admit = (resourceType: string): 'skipped' | 'refused' | undefined => {
    counts.requested += 1;
    if (SKIPPED_TYPES.has(resourceType)) {
      counts.skipped += 1;
      return 'skipped';
    }
    if (options.signal.aborted || fetchesStarted >= options.maxResources) {
      counts.refused += 1;
      return 'refused';
    }
    return undefined;
  };

  const fetchCounted = async (request: Omit<ResourceRequest, 'signal'>): Promise<ResourceResponse> => {
    fetchesStarted += 1;
    inFlight += 1;
    lastActivityAt = Date.now();
    try {
      const response = await options.fetchResource({ ...request, signal: options.signal });
      // Chromium would follow a redirect itself, without our route (playwright routes only the
      // first request of a chain): the fetcher must have followed it. The dead proxy would stop
      // it too, but it is not left to that.
      if (REDIRECT_STATUSES.has(response.status) && hasHeader(response.headers, 'location')) {
        throw new Error(`the fetcher returned a ${response.status} redirect instead of following it`);
      }
      return response;
    } catch (error) {
      if (error instanceof UrlRefusedError) counts.refused += 1;
      else counts.failed += 1;
      throw error;
    } finally {
      inFlight -= 1;
      lastActivityAt = Date.now();
    }
  };

  const answer = async (route: Route, request: Request) => {
    const url = request.url();
    if (mainDocument?.url === url && isMainDocument(request)) {
      const { response } = mainDocument;
      mainDocument = undefined;
      await fulfil(route, response);
      return;
    }
    if (admit(request.resourceType()) !== undefined) {
      await abort(route);
      return;
    }
    try {
      const postData = request.postDataBuffer();
      const response = await fetchCounted({ url, method: request.method(), headers: request.headers(), ...(postData ? { postData } : {}), resourceType: request.resourceType() });
      await fulfil(route, response);
    } catch {
      await abort(route);
    }
  };

  await context.route('**/*', answer);
  await context.routeWebSocket(/.*/, (socket) => {
    counts.requested += 1;
    counts.refused += 1;
    // Without connectToServer nothing is connected; closing tells the page's script at once.
    void socket.close({ code: 1008, reason: 'WebSockets are not available to rendered pages' }).catch(() => undefined);
  });

  return {
    counts,
    inFlight: () => inFlight,
    lastActivityAt: () => lastActivityAt,
    async fetchMainDocument(url, headers, fetched) {
      if (admit('document') !== undefined) throw new Error(options.signal.aborted ? 'the render is over' : 'maxResources allows no request');
      const response = fetched ?? (await fetchCounted({ url, method: 'GET', headers, resourceType: 'document' }));
      const finalUrl = normalised(response.url) ?? url;
      mainDocument = { url: finalUrl, response };
      return { finalUrl };
    },
  };
}

function isMainDocument(request: Request): boolean {
  try {
    return request.isNavigationRequest() && request.frame().parentFrame() === null;
  } catch {
    return false; // a request without a frame (a worker's) is no document
  }
}

function normalised(url: string): string | undefined {
  try {
    return new URL(url).href;
  } catch {
    return undefined;
  }
}

function hasHeader(headers: Readonly<Record<string, string>>, name: string): boolean {
  return Object.keys(headers).some((key) => key.toLowerCase() === name);
}

function fulfilHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (!HOP_HEADERS.has(name.toLowerCase())) kept[name] = value;
  return kept;
}

// The context may close (render over) while an answer is on its way: that is not an error.
async function fulfil(route: Route, response: ResourceResponse): Promise<void> {
  await route.fulfill({ status: response.status, headers: fulfilHeaders(response.headers), body: response.body }).catch(() => undefined);
}

async function abort(route: Route): Promise<void> {
  await route.abort('blockedbyclient').catch(() => undefined);
}
