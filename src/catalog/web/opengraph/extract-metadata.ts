// A page's metadata for link previews and readers, from its HTML alone (no requests are made:
// oEmbed endpoints and feeds are reported, not fetched).
import { parseDocument } from '../page/parse-document.ts';
import { documentBaseUrl } from '../page/page-urls.ts';
import { readJsonLd } from './json-ld.ts';
import { buildPreview } from './link-preview.ts';
import { readLinkTags } from './link-tags.ts';
import { metaEntries } from './meta-entries.ts';
import type { PageMetadata } from './metadata-types.ts';
import { readOgArticle, readOpenGraph } from './open-graph.ts';
import { readStandardMeta } from './standard-meta.ts';
import { readTwitterCard } from './twitter-card.ts';

export function extractMetadata(html: string, pageUrl: string): PageMetadata {
  return extractMetadataFromDocument(parseDocument(html), pageUrl);
}

/** The same from an already parsed document, which is left unchanged. */
export function extractMetadataFromDocument(document: Document, pageUrl: string): PageMetadata {
  const baseUrl = documentBaseUrl(document, pageUrl);
  const entries = metaEntries(document);
  const openGraph = readOpenGraph(entries, baseUrl);
  const article = readOgArticle(entries);
  const twitter = readTwitterCard(entries, baseUrl);
  const meta = readStandardMeta(entries);
  const { items: jsonLd, invalidBlocks } = readJsonLd(document, baseUrl);
  const links = readLinkTags(document, baseUrl, pageUrl);
  const title = textOf(documentTitle(document));
  const h1 = textOf(document.querySelector('h1'));
  const { preview, from } = buildPreview({ pageUrl, title, h1, canonical: links.canonical, imageSrc: links.imageSrc, openGraph, twitter, meta, jsonLd, icons: links.icons });
  return {
    url: pageUrl,
    baseUrl,
    lang: document.documentElement.getAttribute('lang')?.trim() || null,
    title,
    h1,
    canonical: links.canonical,
    preview,
    from,
    openGraph,
    article,
    twitter,
    meta,
    jsonLd,
    invalidJsonLdBlocks: invalidBlocks,
    icons: links.icons,
    oembed: links.oembed,
    feeds: links.feeds,
  };
}

/** The document's <title>, not an SVG's. */
function documentTitle(document: Document): Element | null {
  return Array.from(document.querySelectorAll('title')).find((title) => !title.closest('svg')) ?? null;
}

function textOf(element: Element | null): string | null {
  return element?.textContent?.replace(/\s+/g, ' ').trim() || null;
}
