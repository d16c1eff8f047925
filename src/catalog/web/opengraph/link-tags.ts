// What a page's <link> tags point to: its canonical address, icons, oEmbed endpoints (oembed.com
// discovery) and feeds (RSS, Atom, JSON Feed alternates).
import { absoluteHttpUrl } from '../page/page-urls.ts';
import type { FeedLink, OEmbedLink, PageIcon } from './metadata-types.ts';

export interface LinkTags {
  canonical: string | null;
  icons: PageIcon[];
  oembed: OEmbedLink[];
  feeds: FeedLink[];
  /** <link rel="image_src">, an old way to name a preview image. */
  imageSrc: string | null;
}

const ICON_RELS = new Set(['icon', 'apple-touch-icon', 'apple-touch-icon-precomposed', 'mask-icon']);
const OEMBED_TYPES: Readonly<Record<string, OEmbedLink['format']>> = { 'application/json+oembed': 'json', 'text/xml+oembed': 'xml', 'application/xml+oembed': 'xml' };
const FEED_TYPES: Readonly<Record<string, FeedLink['format']>> = { 'application/rss+xml': 'rss', 'application/atom+xml': 'atom', 'application/feed+json': 'json' };

export function readLinkTags(document: Document, base: string, pageUrl: string): LinkTags {
  const tags: LinkTags = { canonical: null, icons: [], oembed: [], feeds: [], imageSrc: null };
  for (const link of Array.from(document.querySelectorAll('link[rel][href]'))) {
    const url = absoluteHttpUrl(link.getAttribute('href'), base);
    if (!url) continue;
    const relText = (link.getAttribute('rel') ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
    const rels = new Set(relText.split(' '));
    const type = link.getAttribute('type')?.trim().toLowerCase() ?? '';
    const title = link.getAttribute('title')?.replace(/\s+/g, ' ').trim() || null;
    if (rels.has('canonical')) tags.canonical ??= url;
    if (rels.has('image_src')) tags.imageSrc ??= url;
    if ([...rels].some((rel) => ICON_RELS.has(rel)) && !tags.icons.some((icon) => icon.url === url)) {
      tags.icons.push({ url, rel: relText, sizes: link.getAttribute('sizes')?.trim() || null, type: type || null, fallback: false });
    }
    if (!rels.has('alternate')) continue;
    const oembedFormat = OEMBED_TYPES[type];
    if (oembedFormat) tags.oembed.push({ url, format: oembedFormat, title });
    const feedFormat = FEED_TYPES[type];
    if (feedFormat && !tags.feeds.some((feed) => feed.url === url)) tags.feeds.push({ url, format: feedFormat, title });
  }
  if (tags.icons.length === 0) {
    // Browsers ask the site root for /favicon.ico when a page declares no icon.
    const root = absoluteHttpUrl('/favicon.ico', pageUrl);
    if (root) tags.icons.push({ url: root, rel: 'icon', sizes: null, type: null, fallback: true });
  }
  return tags;
}
