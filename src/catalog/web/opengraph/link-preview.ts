// One preview from everything a page declares, each value from the most specific source that has
// it (Open Graph, then X card, then schema.org, then plain HTML), saying which one it came from.
import type { JsonLdItem, LinkPreview, OpenGraph, PageIcon, PreviewSources, StandardMeta, TwitterCard } from './metadata-types.ts';
import { siteHost } from '../../../net/site-host.ts';

export interface PreviewInputs {
  pageUrl: string;
  title: string | null;
  h1: string | null;
  canonical: string | null;
  imageSrc: string | null;
  openGraph: OpenGraph;
  twitter: TwitterCard;
  meta: StandardMeta;
  jsonLd: readonly JsonLdItem[];
  icons: readonly PageIcon[];
}

/** A value and where it came from; the first candidate with a value wins. */
type Candidate<S> = [S, string | null | undefined];

function pick<S>(candidates: Candidate<S>[]): [string, S] | null {
  for (const [source, value] of candidates) if (value) return [value, source];
  return null;
}

export function buildPreview(inputs: PreviewInputs): { preview: LinkPreview; from: PreviewSources } {
  const { openGraph: og, twitter, meta, jsonLd } = inputs;
  const firstOf = (field: (item: JsonLdItem) => string | null) => jsonLd.map(field).find((value) => value !== null);
  const ogImage = og.images[0];

  const title = pick<PreviewSources['title']>([['og:title', og.title], ['twitter:title', twitter.title], ['json-ld', firstOf((item) => item.headline ?? item.name)], ['title', inputs.title], ['h1', inputs.h1]]);
  const description = pick<PreviewSources['description']>([['og:description', og.description], ['twitter:description', twitter.description], ['description', meta.description], ['json-ld', firstOf((item) => item.description)]]);
  const image = pick<PreviewSources['image']>([['og:image', ogImage?.secureUrl ?? ogImage?.url], ['twitter:image', twitter.image], ['json-ld', firstOf((item) => item.image)], ['image_src', inputs.imageSrc]]);
  const siteName = pick<PreviewSources['siteName']>([['og:site_name', og.siteName], ['json-ld', siteNameInJsonLd(jsonLd)], ['application-name', meta.applicationName]]) ?? [siteHost(inputs.pageUrl), 'hostname'];
  const url = pick<PreviewSources['url']>([['og:url', og.url], ['canonical', inputs.canonical]]) ?? [inputs.pageUrl, 'page'];
  const type = pick<PreviewSources['type']>([['og:type', og.type]]) ?? ['website', 'default'];
  const favicon = chooseFavicon(inputs.icons, inputs.pageUrl);

  return {
    preview: { title: title?.[0] ?? null, description: description?.[0] ?? null, image: image?.[0] ?? null, siteName: siteName[0], url: url[0], type: type[0], favicon: favicon[0] },
    from: { title: title?.[1] ?? null, description: description?.[1] ?? null, image: image?.[1] ?? null, siteName: siteName[1], url: url[1], type: type[1], favicon: favicon[1] },
  };
}

/** The name of a WebSite item, else the publisher of an article. */
function siteNameInJsonLd(items: readonly JsonLdItem[]): string | null {
  const website = items.find((item) => item.types.includes('WebSite') && item.name);
  return website?.name ?? items.map((item) => item.publisher).find((name) => name !== null) ?? null;
}

function chooseFavicon(icons: readonly PageIcon[], pageUrl: string): [string, PreviewSources['favicon']] {
  const declared = icons.filter((icon) => !icon.fallback);
  const plain = declared.find((icon) => icon.rel.split(' ').includes('icon'));
  if (plain) return [plain.url, 'icon'];
  const touch = declared.find((icon) => icon.rel.startsWith('apple-touch-icon'));
  if (touch) return [touch.url, 'apple-touch-icon'];
  return [new URL('/favicon.ico', pageUrl).href, 'favicon.ico'];
}
