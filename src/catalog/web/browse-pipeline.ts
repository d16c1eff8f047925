// A caller's URL to a read page: guarded fetch with a browser's headers, the status checked, the
// content classified (binary refused), the charset decoded, then HTML through Readability to
// Markdown — rendered in headless Chromium first when the static read is a thin app shell —
// PDF through its text layer, and text as it is. Shared by browse_web_stealth and distill by URL.
import { ToolError, type ToolContext } from '../tool.ts';
import type { GuardedResponse } from '../../upstream/guard/guarded-fetch.ts';
import { classifyContent, declaresBinary, readableKind } from './page/content-kind.ts';
import { decodeBody } from './page/decode-text.ts';
import { needsRendering } from './page/needs-rendering.ts';
import type { ReadPage } from './page/read-page.ts';
import { readHtmlPage, readPdfPage, readTextPage } from './page/read-page.ts';

export interface BrowsedPage extends ReadPage {
  /** The URL asked for, and where the redirects (each checked by the SSRF guard) ended. */
  url: string;
  finalUrl: string;
  redirects: string[];
  status: number;
  contentType: string;
  kind: 'html' | 'xhtml' | 'pdf' | 'text';
  charset?: string;
  /** Whether the page was rendered in headless Chromium (its scripts run) before it was read. */
  rendered: boolean;
  /** Why it was or was not rendered, when rendering was considered. */
  renderNote?: string;
  /** True when the body was longer than the page cap and only its start was read. */
  truncated: boolean;
  fetchedAt: string;
}

type Context = Pick<ToolContext, 'signal' | 'deadline' | 'web' | 'now'>;

export async function browsePage(url: string, ctx: Context): Promise<BrowsedPage> {
  const response = await ctx.web.fetch(url, { signal: ctx.signal, deadline: ctx.deadline, wantsBody: readableBody });
  const fetchedAt = ctx.now().toISOString();
  refuseErrorStatus(response);
  const contentType = response.headers['content-type'] ?? '';
  const kind = readableKind(classifyContent(contentType, response.body));
  const base = {
    url, finalUrl: response.url.toString(), redirects: response.redirects, status: response.status,
    contentType, kind, truncated: response.truncated, fetchedAt,
  };

  if (kind === 'pdf') {
    if (response.truncated) throw new ToolError(422, 'document_too_large', `The PDF at ${base.finalUrl} is larger than this gateway's page limit; it cannot be read in part. You were not charged.`);
    return { ...base, ...(await readPdfPage(new Uint8Array(response.body), base.finalUrl)), rendered: false };
  }
  const decoded = decodeBody(response.body, contentType);
  if (kind === 'text') return { ...base, ...readTextPage(decoded.text, base.finalUrl, contentType), charset: decoded.charset, rendered: false };

  const staticRead = readHtmlPage(decoded.text, base.finalUrl);
  const verdict = needsRendering(decoded.text, staticRead);
  if (!verdict.render) return { ...base, ...staticRead, charset: decoded.charset, rendered: false };

  const outcome = await ctx.web.render(base.finalUrl, { signal: ctx.signal, deadline: ctx.deadline }, response);
  if (!outcome.rendered) {
    return { ...base, ...staticRead, charset: decoded.charset, rendered: false, renderNote: `${verdict.reason}, but it could not be rendered: ${outcome.reason}` };
  }
  const renderedRead = readHtmlPage(outcome.page.html, outcome.page.finalUrl);
  return {
    ...base, ...renderedRead, finalUrl: outcome.page.finalUrl, charset: decoded.charset, rendered: true,
    renderNote: `${verdict.reason}; rendered in headless Chromium (${outcome.page.resources.requested} requests, ${outcome.page.resources.refused} refused by the SSRF guard)`,
  };
}

/** A body worth reading: not an error page, not a download whose type already says it is binary. */
export function readableBody(status: number, headers: Readonly<Record<string, string>>): boolean {
  return status < 400 && !declaresBinary(headers['content-type']);
}

/** An error page is not the page the caller asked for: 4xx and 5xx fail the call, uncharged. */
export function refuseErrorStatus(response: GuardedResponse): void {
  if (response.status < 400) return;
  const where = response.url.host;
  throw new ToolError(502, 'page_http_error', `${where} answered HTTP ${response.status} for ${response.url.toString()}. You were not charged.`, {
    status: response.status,
    finalUrl: response.url.toString(),
  });
}
