// DuckDuckGo's JavaScript-free results page, `POST /html/` with the form field `q` (its own search
// form posts there). No documented API: the page is read by its markup — `div#links` holding
// `div.result` blocks with `a.result__a` and `.result__snippet`, ads marked `result--ad`, and a
// `result--no-result` block when nothing matched. Automated requests are often answered with a bot
// challenge ("anomaly" page, HTTP 202) instead of results; that is a failure, never "no results".
import { parseHTML } from 'linkedom';
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { httpUrl } from './http-url.ts';
import { isoFromDateTime } from './iso-time.ts';
import { squashSpace } from './plain-text.ts';
import { bodyText } from './response-body.ts';
import type { SearchHit } from './search-hit.ts';

export const duckduckgo = defineProvider({
  id: 'duckduckgo',
  name: 'DuckDuckGo',
  baseUrl: { env: 'TOOLGATE_DUCKDUCKGO_URL', default: 'https://html.duckduckgo.com' },
  timeoutMs: 8_000,
  maxBytes: 1024 * 1024,
  // DuckDuckGo publishes no limit and challenges bursts of automated queries: keep them sparse.
  rateLimit: { requests: 1, perMs: 1_000, concurrency: 2, maxQueueMs: 3_000 },
  cacheTtlMs: 10 * 60_000,
  cacheReason: 'Web results for a query change over hours, not minutes, and every repeat risks a bot challenge.',
  staleForMs: 60 * 60_000,
  attribution: 'Results from DuckDuckGo',
  termsUrl: 'https://duckduckgo.com/terms',
  docsUrl: 'https://docs.searxng.org/dev/engines/online/duckduckgo.html',
});

/** DuckDuckGo answers a suspected bot with its challenge page and this status. */
const CHALLENGE_STATUS = 202;
/** Relative and protocol-relative links on the page resolve against it. */
const PAGE_URL = 'https://html.duckduckgo.com/html/';

/** The parts of linkedom's element API this parser uses. */
interface PageElement {
  readonly textContent: string | null;
  readonly classList: { contains(name: string): boolean };
  getAttribute(name: string): string | null;
  querySelector(selectors: string): PageElement | null;
  querySelectorAll(selectors: string): Iterable<PageElement>;
}

export async function searchDuckDuckGo(caller: ProviderCaller, query: string, limit: number, signal: AbortSignal): Promise<ProviderAnswer<SearchHit[]>> {
  // The page's own search form: `q`, and an empty `b` (its submit button) for the first page.
  const answer = await caller.call(
    duckduckgo,
    { path: '/html/', method: 'POST', form: { q: query, b: '' }, headers: { accept: 'text/html' } },
    parseDuckDuckGo,
    signal,
  );
  return { ...answer, value: answer.value.slice(0, Math.max(0, limit)) };
}

export function parseDuckDuckGo(response: RawResponse): SearchHit[] {
  if (response.status === CHALLENGE_STATUS) {
    throw badAnswer(duckduckgo.name, 'it answered with its bot challenge (HTTP 202) instead of results', CHALLENGE_STATUS);
  }
  const page = parseHTML(bodyText(response)).document as unknown as PageElement;
  // Results first: the query is echoed into the page, so challenge markers are only consulted when nothing was served.
  const hits = organicHits(page);
  if (hits.length > 0) return hits;
  if (isChallenge(page)) {
    throw badAnswer(duckduckgo.name, 'it answered with its bot challenge ("anomaly" page) instead of results', response.status);
  }
  if (page.querySelector('.result--no-result, .no-results')) return [];
  if (!page.querySelector('#links')) {
    throw badAnswer(duckduckgo.name, 'its page has no results list (div#links); the page layout may have changed', response.status);
  }
  return [];
}

function organicHits(page: PageElement): SearchHit[] {
  const hits: SearchHit[] = [];
  const seen = new Set<string>();
  for (const block of page.querySelectorAll('#links .result')) {
    if (block.classList.contains('result--ad') || block.classList.contains('result--no-result')) continue;
    const link = block.querySelector('a.result__a');
    const url = targetOf(link?.getAttribute('href') ?? '');
    const title = squashSpace(link?.textContent ?? '');
    if (!url || seen.has(url) || isEndOfResultsPlaceholder(title, url)) continue;
    seen.add(url);
    const publishedAt = publishedAtOf(block);
    hits.push({
      title: title || url,
      url,
      snippet: squashSpace(block.querySelector('.result__snippet')?.textContent ?? ''),
      position: hits.length + 1,
      ...(publishedAt ? { publishedAt } : {}),
    });
  }
  return hits;
}

/**
 * The destination of a result link: `//duckduckgo.com/l/?uddg=<target>&rut=...` redirects are
 * unwrapped; other links into duckduckgo.com (`y.js` ad clicks, its own pages) are not results.
 */
function targetOf(href: string): string | undefined {
  const link = urlOn(href, PAGE_URL);
  if (!link) return undefined;
  const target = isDuckDuckGo(link) && link.pathname === '/l/' ? urlOn(link.searchParams.get('uddg') ?? '') : link;
  // Ad links are wrapped in the redirect too, so the unwrapped target is checked as well.
  return target && !isDuckDuckGo(target) ? httpUrl(target.href) : undefined;
}

function urlOn(href: string, base?: string): URL | undefined {
  try {
    return new URL(href, base);
  } catch {
    return undefined;
  }
}

function isDuckDuckGo(url: URL): boolean {
  return url.hostname === 'duckduckgo.com' || url.hostname.endsWith('.duckduckgo.com');
}

/** When a query runs out, the page may end with an "EOF" entry that links to a Google search for it. */
function isEndOfResultsPlaceholder(title: string, url: string): boolean {
  const { hostname, pathname } = new URL(url);
  return title === 'EOF' && hostname.endsWith('google.com') && pathname === '/search';
}

/** Some results carry their page's date as a bare `<span>` after the display URL. */
function publishedAtOf(block: PageElement): string | undefined {
  for (const span of block.querySelectorAll('.result__extras__url span')) {
    if (span.getAttribute('class')) continue;
    const published = isoFromDateTime(squashSpace(span.textContent ?? ''));
    if (published) return published;
  }
  return undefined;
}

function isChallenge(page: PageElement): boolean {
  if (page.querySelector('form#challenge-form, [data-testid="anomaly-modal"], .anomaly-modal__modal')) return true;
  for (const form of page.querySelectorAll('form')) {
    if ((form.getAttribute('action') ?? '').includes('/anomaly.js')) return true;
  }
  return false;
}
