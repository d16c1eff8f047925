// Links written in text: Markdown links and bare http(s) URLs.
import { absoluteHttpUrl } from './page-urls.ts';
import { MAX_PAGE_LINKS, type PageLink } from './read-page-types.ts';

const MARKDOWN_LINK = /(?<!!)\[([^\]\n]*)\]\(\s*<?([^\s)>]+)>?(?:\s+["'(][^\n]*?["')])?\s*\)/g;
const BARE_URL = /\bhttps?:\/\/[^\s<>"'`()[\]{}]+/g;

export function textLinks(text: string, pageUrl: string, markdown: boolean): PageLink[] {
  const links = new Map<string, string>();
  const add = (reference: string, label: string) => {
    // Sentence punctuation right after a bare URL is not part of it.
    const url = absoluteHttpUrl(reference.replace(/[.,;:!?]+$/, ''), pageUrl);
    if (url && !links.has(url) && links.size < MAX_PAGE_LINKS) links.set(url, label.replace(/\s+/g, ' ').trim() || url);
  };
  let rest = text;
  if (markdown) {
    for (const match of text.matchAll(MARKDOWN_LINK)) add(match[2]!, match[1]!);
    rest = text.replace(MARKDOWN_LINK, ' ');
  }
  for (const match of rest.matchAll(BARE_URL)) add(match[0], '');
  return Array.from(links, ([url, label]) => ({ text: label, url }));
}
