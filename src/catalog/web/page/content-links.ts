// The outgoing links of a page's main content, for a reader that wants to follow them.
import { MAX_PAGE_LINKS, type PageLink } from './read-page-types.ts';

/** Links of content `cleanContent` prepared (hrefs already absolute); in-page anchors are left out. */
export function contentLinks(content: HTMLElement, pageUrl: string): PageLink[] {
  const links = new Map<string, string>();
  const page = withoutFragment(pageUrl);
  for (const anchor of Array.from(content.querySelectorAll('a[href]'))) {
    if (links.size >= MAX_PAGE_LINKS) break;
    const url = anchor.getAttribute('href') ?? '';
    if (!/^https?:/i.test(url) || withoutFragment(url) === page || links.has(url)) continue;
    const text = anchor.textContent?.replace(/\s+/g, ' ').trim() || anchor.querySelector('img')?.getAttribute('alt')?.trim() || anchor.getAttribute('title')?.trim() || url;
    links.set(url, text);
  }
  return Array.from(links, ([url, text]) => ({ text, url }));
}

function withoutFragment(url: string): string {
  const hash = url.indexOf('#');
  return hash < 0 ? url : url.slice(0, hash);
}
