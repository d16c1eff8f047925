// Content HTML made ready to be written out as Markdown or mined for links: what a reader never
// sees is removed, lazy images get their real source, and every link and image URL is absolute.
import { parseDocument } from './parse-document.ts';
import { absoluteHttpUrl, documentBaseUrl } from './page-urls.ts';

const INVISIBLE = [
  'script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'canvas', 'svg', 'link', 'meta',
  'button', 'input', 'select', 'textarea', '[hidden]', '[aria-hidden="true"]',
].join(',');

/** Where lazy-loading scripts keep an image's real address while src holds a placeholder. */
const LAZY_SOURCES = ['data-src', 'data-lazy-src', 'data-original', 'data-srcset', 'srcset'];

/** Site navigation and furniture around the content. */
const CHROME = 'nav, aside, header, footer, [role="navigation"], [role="banner"], [role="contentinfo"], [role="complementary"]';

export interface CleanOptions {
  /** Also remove navigation, asides, and headers and footers outside <article>/<main>: for whole pages. */
  dropChrome?: boolean;
}

/**
 * The <body> of a new document holding the cleaned content. `baseUrl` is the page's base URL;
 * a <base href> inside `html` itself (when a whole page is passed) takes precedence.
 */
export function cleanContent(html: string, baseUrl: string, options: CleanOptions = {}): HTMLElement {
  const document = parseDocument(html);
  const base = documentBaseUrl(document, baseUrl);
  const body = document.body;
  for (const element of Array.from(body.querySelectorAll(INVISIBLE))) element.remove();
  if (options.dropChrome) {
    for (const element of Array.from(body.querySelectorAll(CHROME))) {
      // An article's own header (its title, byline) is content.
      const ownHeader = (element.localName === 'header' || element.localName === 'footer') && element.parentElement?.closest('article, main');
      if (!ownHeader) element.remove();
    }
  }
  for (const image of Array.from(body.querySelectorAll('img'))) fixImage(image, base);
  for (const link of Array.from(body.querySelectorAll('a'))) fixLink(link, base);
  // <br> inside preformatted text is a line break of the code; textContent would lose it.
  for (const br of Array.from(body.querySelectorAll('pre br'))) br.replaceWith(document.createTextNode('\n'));
  return body;
}

function fixImage(image: HTMLImageElement, base: string): void {
  const src = image.getAttribute('src')?.trim() ?? '';
  const candidates = src && !src.startsWith('data:') ? [src] : [];
  for (const attribute of LAZY_SOURCES) {
    const value = image.getAttribute(attribute)?.trim();
    // A srcset's first candidate: its URL ends at the first space (a width or density follows).
    if (value) candidates.push(value.split(',')[0]!.trim().split(/\s+/)[0]!);
  }
  const url = candidates.map((candidate) => absoluteHttpUrl(candidate, base)).find((found) => found !== null);
  if (!url) {
    image.remove();
    return;
  }
  image.setAttribute('src', url);
  for (const attribute of LAZY_SOURCES) image.removeAttribute(attribute);
}

function fixLink(link: HTMLAnchorElement, base: string): void {
  const href = link.getAttribute('href');
  const url = href === null ? null : absoluteHttpUrl(href, base) ?? mailOrPhone(href);
  const empty = !link.textContent?.trim() && !link.querySelector('img');
  if (empty) link.remove();
  // javascript:, data: and broken links lead nowhere once the page is text: their words stay.
  else if (url === null) link.replaceWith(...Array.from(link.childNodes));
  else link.setAttribute('href', url);
}

function mailOrPhone(href: string): string | null {
  const trimmed = href.trim();
  return /^(?:mailto|tel):\S/i.test(trimmed) ? trimmed : null;
}
