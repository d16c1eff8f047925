// Caller-supplied URLs: every fetch goes through the SSRF guard (pinned, re-checked on every
// redirect), with a real browser's headers, the page size cap and the call's deadline; pages that
// need JavaScript are rendered in headless Chromium, whose every request goes through the same
// guard. Failures of the site become ToolErrors that name the site, so they are never charged.
import { ToolError } from '../errors/tool-error.ts';
import type { PageRenderer } from './browser/page-renderer.ts';
import type { RenderedPage } from './browser/render-types.ts';
import type { GuardedResponse } from './guard/guarded-fetch.ts';
import { guardedFetch } from './guard/guarded-fetch.ts';
import type { GuardPolicy } from './guard/guard-types.ts';
import { checkCallerUrl } from './guard/url-policy.ts';
import { RawFetchError } from './http/http-types.ts';

/** Headers of a desktop Chrome navigation, so sites answer as they would to a person. */
export const BROWSER_HEADERS: Readonly<Record<string, string>> = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36',
  accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8',
  'accept-language': 'en-US,en;q=0.9',
  'sec-ch-ua': '"Chromium";v="142", "Not_A Brand";v="99"',
  'sec-ch-ua-mobile': '?0',
  'sec-ch-ua-platform': '"Linux"',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'sec-fetch-site': 'none',
  'sec-fetch-user': '?1',
  'upgrade-insecure-requests': '1',
};

export interface PageRequest {
  signal: AbortSignal;
  /** The call's deadline (epoch ms). */
  deadline: number;
  accept?: string;
  /** Defaults to the configured page cap. */
  maxBytes?: number;
  /** Declines a body from its headers alone (a binary download is refused, not read). */
  wantsBody?: (status: number, headers: Readonly<Record<string, string>>) => boolean;
}

export type RenderOutcome = { rendered: true; page: RenderedPage } | { rendered: false; reason: string };

export interface WebPagesOptions {
  policy: GuardPolicy;
  pageMaxBytes: number;
  renderer: PageRenderer | undefined;
  /** Subresources of a rendered page are smaller than pages; each is capped at this. */
  resourceMaxBytes?: number;
}

/** Time kept back from the deadline so a slow site still ends in our own clear error. */
const DEADLINE_MARGIN_MS = 250;

export class WebPages {
  constructor(private readonly options: WebPagesOptions) {}

  /** Static checks needing no DNS (scheme, credentials, port, literal addresses): refused URLs cost nothing. */
  precheck(url: string): void {
    const verdict = checkCallerUrl(url, this.options.policy);
    if (!verdict.ok) throw new ToolError(400, 'url_refused', verdict.message, { reason: verdict.reason, url });
  }

  async fetch(url: string, request: PageRequest): Promise<GuardedResponse> {
    const timeoutMs = request.deadline - Date.now() - DEADLINE_MARGIN_MS;
    const host = hostOf(url);
    if (timeoutMs <= 0) throw new ToolError(504, 'page_timeout', `no time was left in this call to fetch ${host}. You were not charged.`);
    try {
      return await guardedFetch(url, {
        policy: this.options.policy,
        timeoutMs,
        maxBytes: request.maxBytes ?? this.options.pageMaxBytes,
        headers: request.accept ? { ...BROWSER_HEADERS, accept: request.accept } : BROWSER_HEADERS,
        signal: request.signal,
        ...(request.wantsBody ? { wantsBody: request.wantsBody } : {}),
      });
    } catch (error) {
      if (error instanceof RawFetchError) throw siteFailure(host, error, timeoutMs);
      throw error;
    }
  }

  /** Renders the page; `fetched` is its document when the caller already has it complete (it is not fetched again). */
  async render(url: string, request: PageRequest, fetched?: GuardedResponse): Promise<RenderOutcome> {
    const renderer = this.options.renderer;
    if (!renderer) return { rendered: false, reason: 'rendering is turned off on this gateway' };
    const availability = await renderer.availability();
    if (!availability.available) return { rendered: false, reason: availability.reason };
    const timeoutMs = request.deadline - Date.now() - DEADLINE_MARGIN_MS;
    if (timeoutMs < 1_000) return { rendered: false, reason: 'not enough time was left in this call to render the page' };
    try {
      return { rendered: true, page: await this.renderThroughGuard(renderer, url, request, timeoutMs, fetched) };
    } catch (error) {
      // The static read is still worth selling: the caller gets it, with the reason it was not rendered.
      if (request.signal.aborted) throw error;
      return { rendered: false, reason: `rendering failed (${error instanceof Error ? error.message : String(error)})` };
    }
  }

  /** Chromium opens no connection itself: every request of the page is fetched here, through the guard. */
  private renderThroughGuard(renderer: PageRenderer, url: string, request: PageRequest, timeoutMs: number, fetched?: GuardedResponse): Promise<RenderedPage> {
    const resourceMaxBytes = this.options.resourceMaxBytes ?? Math.min(this.options.pageMaxBytes, 2 * 1024 * 1024);
    const userAgent = BROWSER_HEADERS['user-agent']!;
    return renderer.render(url, {
      timeoutMs,
      signal: request.signal,
      userAgent,
      ...(fetched && !fetched.truncated && !fetched.bodySkipped
        ? { mainDocument: { status: fetched.status, headers: fetched.headers, body: fetched.body, url: fetched.url.toString() } }
        : {}),
      fetchResource: async (resource) => {
        // A page's reads are what its text is built from; its writes (POST, PUT...) are not made on a caller's behalf.
        if (resource.method !== 'GET' && resource.method !== 'HEAD') throw new Error(`${resource.method} requests of a rendered page are not made`);
        const response = await guardedFetch(resource.url, {
          policy: this.options.policy,
          method: resource.method,
          timeoutMs: Math.max(1, request.deadline - Date.now() - DEADLINE_MARGIN_MS),
          maxBytes: resourceMaxBytes,
          headers: { ...resource.headers, 'user-agent': userAgent },
          signal: AbortSignal.any([request.signal, resource.signal]),
        });
        return { status: response.status, headers: response.headers, body: response.body, url: response.url.toString() };
      },
    });
  }
}

function hostOf(url: string): string {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
}

function siteFailure(host: string, error: RawFetchError, timeoutMs: number): ToolError {
  switch (error.failure) {
    case 'timeout':
    case 'aborted':
      return new ToolError(504, 'page_timeout', `${host} did not answer within ${timeoutMs} ms. You were not charged.`);
    case 'protocol_error':
      return new ToolError(502, 'page_unreadable', `${host} answered something that is not valid HTTP (${error.message}). You were not charged.`);
    default:
      return new ToolError(502, 'page_unreachable', `${host} could not be reached (${error.failure.replace('_', ' ')}). You were not charged.`);
  }
}
