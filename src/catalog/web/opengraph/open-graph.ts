// Open Graph as ogp.me defines it: single properties where the first tag wins, and arrays of
// og:image / og:video / og:audio whose structured properties (og:image:width...) belong to the
// root tag declared last before them.
import { absoluteHttpUrl } from '../page/page-urls.ts';
import { allValues, firstValue, pixels, type MetaEntry } from './meta-entries.ts';
import type { OgArticle, OgAudio, OgVisual, OpenGraph } from './metadata-types.ts';

export function readOpenGraph(entries: readonly MetaEntry[], base: string): OpenGraph {
  const url = (value: string | null) => absoluteHttpUrl(value, base);
  return {
    title: firstValue(entries, 'og:title'),
    description: firstValue(entries, 'og:description'),
    type: firstValue(entries, 'og:type')?.toLowerCase() ?? null,
    url: url(firstValue(entries, 'og:url')),
    siteName: firstValue(entries, 'og:site_name'),
    locale: firstValue(entries, 'og:locale'),
    localeAlternates: allValues(entries, 'og:locale:alternate'),
    determiner: firstValue(entries, 'og:determiner'),
    images: readStructured(entries, 'og:image', base).map((item) => visual(item, base)),
    videos: readStructured(entries, 'og:video', base).map((item) => visual(item, base)),
    audios: readStructured(entries, 'og:audio', base).map(({ url: audioUrl, properties }) => ({
      url: audioUrl,
      secureUrl: secure(properties.get('secure_url'), base),
      type: properties.get('type') ?? null,
    }) satisfies OgAudio),
  };
}

export function readOgArticle(entries: readonly MetaEntry[]): OgArticle {
  return {
    publishedTime: firstValue(entries, 'article:published_time'),
    modifiedTime: firstValue(entries, 'article:modified_time'),
    expirationTime: firstValue(entries, 'article:expiration_time'),
    section: firstValue(entries, 'article:section'),
    authors: allValues(entries, 'article:author'),
    tags: allValues(entries, 'article:tag'),
  };
}

interface StructuredMedia {
  url: string;
  /** Structured properties by name ("width", "secure_url"...), first value kept. */
  properties: Map<string, string>;
}

function readStructured(entries: readonly MetaEntry[], root: string, base: string): StructuredMedia[] {
  const media: StructuredMedia[] = [];
  let current: StructuredMedia | undefined;
  for (const { key, content } of entries) {
    if (key === root || key === `${root}:url`) {
      const url = absoluteHttpUrl(content, base);
      // A URL seen before (often og:image:url restating og:image) continues that item.
      current = url === null ? undefined : media.find((item) => item.url === url);
      if (url !== null && current === undefined) {
        current = { url, properties: new Map() };
        media.push(current);
      }
    } else if (current !== undefined && key.startsWith(`${root}:`)) {
      const property = key.slice(root.length + 1);
      if (!current.properties.has(property)) current.properties.set(property, content);
    }
  }
  return media;
}

function visual({ url, properties }: StructuredMedia, base: string): OgVisual {
  return {
    url,
    secureUrl: secure(properties.get('secure_url'), base),
    type: properties.get('type') ?? null,
    width: pixels(properties.get('width')),
    height: pixels(properties.get('height')),
    alt: properties.get('alt') ?? null,
  };
}

function secure(value: string | undefined, base: string): string | null {
  const url = absoluteHttpUrl(value, base);
  return url?.startsWith('https:') ? url : null;
}
