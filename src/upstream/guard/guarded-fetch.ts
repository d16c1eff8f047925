// Fetching a caller-supplied URL: every hop of the redirect chain is checked (form, then every
// DNS address) before a byte leaves, and its connection is pinned to the address that was checked.
import { ToolError } from '../../errors/tool-error.ts';
import type { RawRequest, RawResponse } from '../http/http-types.ts';
import { rawFetch } from '../http/raw-fetch.ts';
import { timeLeft } from './deadline.ts';
import type { GuardPolicy, RefusalReason } from './guard-types.ts';
import { checkHost } from './host-check.ts';
import { checkCallerUrl } from './url-policy.ts';

export { systemResolver } from './system-resolver.ts';

/** A caller's URL the guard will not fetch: a 400, decided before anything was sent to it. */
export class UrlRefusedError extends ToolError {
  constructor(
    readonly reason: RefusalReason,
    message: string,
    url: string,
  ) {
    super(400, 'url_refused', message, { reason, url });
    this.name = 'UrlRefusedError';
  }
}

export interface GuardedFetchOptions {
  policy: GuardPolicy;
  /** For the whole redirect chain, DNS included. */
  timeoutMs: number;
  maxBytes: number;
  headers?: Record<string, string>;
  method?: 'GET' | 'HEAD';
  signal?: AbortSignal;
  /** Redirects followed at most (default 5); one more is refused as too_many_redirects. */
  maxRedirects?: number;
  /** Asked for every hop's answer once its headers are in (see RawRequest.wantsBody). */
  wantsBody?: RawRequest['wantsBody'];
  /** Sends each checked hop (default rawFetch); tests observe what would leave through it. */
  transport?: (request: RawRequest) => Promise<RawResponse>;
}

export type GuardedResponse = RawResponse & {
  /** The URL the caller asked for. */
  requestedUrl: string;
  /** Each URL a redirect led to, in order; the last is the URL of this response. Empty without redirects. */
  redirects: string[];
};

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Credentials meant for one site are not handed to another one a redirect points at. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export async function guardedFetch(url: string, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const deadline = Date.now() + options.timeoutMs;
  const maxRedirects = options.maxRedirects ?? 5;
  const transport = options.transport ?? rawFetch;
  const redirects: string[] = [];
  let hop = url;
  let method: NonNullable<RawRequest['method']> = options.method ?? 'GET';
  let headers = lowerCaseNames(options.headers ?? {});
  let cameFrom: URL | undefined;

  for (;;) {
    const refuse = (reason: RefusalReason, message: string) =>
      new UrlRefusedError(reason, cameFrom ? `${message} (reached by a redirect from ${cameFrom.origin}${cameFrom.pathname})` : message, hop);
    const form = checkCallerUrl(hop, options.policy);
    if (!form.ok) throw refuse(form.reason, form.message);
    const host = await checkHost(form.url, { policy: options.policy, deadline, signal: options.signal });
    if (!host.ok) throw refuse(host.reason, host.message);

    const response = await transport({
      url: form.url,
      method,
      headers,
      pinnedAddress: host.pinned,
      timeoutMs: timeLeft(deadline, `${form.url.origin}${form.url.pathname}`),
      maxBytes: options.maxBytes,
      signal: options.signal,
      ...(options.wantsBody ? { wantsBody: options.wantsBody } : {}),
    });
    const location = response.headers.location;
    if (!REDIRECT_STATUSES.has(response.status) || location === undefined) return { ...response, requestedUrl: url, redirects };

    if (redirects.length >= maxRedirects) {
      throw new UrlRefusedError('too_many_redirects', `url: more than ${maxRedirects} redirects; the page at ${url} does not settle`, url);
    }
    let next: URL;
    try {
      next = new URL(location, form.url);
    } catch {
      throw new UrlRefusedError('invalid_url', `url: ${form.url.origin}${form.url.pathname} redirected to an invalid location`, url);
    }
    if (next.origin !== form.url.origin) headers = withoutOriginBoundHeaders(headers);
    method = methodAfterRedirect(response.status, method);
    redirects.push(next.href);
    cameFrom = form.url;
    hop = next.href;
  }
}

/** As browsers do (Fetch standard, HTTP-redirect fetch): 303 turns anything but HEAD into GET, 301/302 turn POST into GET. */
function methodAfterRedirect(status: number, method: NonNullable<RawRequest['method']>): NonNullable<RawRequest['method']> {
  if (status === 303 && method !== 'HEAD') return 'GET';
  if ((status === 301 || status === 302) && method === 'POST') return 'GET';
  return method;
}

function lowerCaseNames(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name.toLowerCase(), value]));
}

function withoutOriginBoundHeaders(headers: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([name]) => !ORIGIN_BOUND_HEADERS.includes(name)));
}
