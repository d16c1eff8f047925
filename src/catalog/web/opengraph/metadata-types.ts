// What a page says about itself for link previews: Open Graph (ogp.me), X/Twitter cards, standard
// <meta>, schema.org JSON-LD and <link> tags, with every URL absolute.

/** og:image or og:video with its structured properties. */
export interface OgVisual {
  url: string;
  secureUrl: string | null;
  type: string | null;
  width: number | null;
  height: number | null;
  alt: string | null;
}

export interface OgAudio {
  url: string;
  secureUrl: string | null;
  type: string | null;
}

export interface OpenGraph {
  title: string | null;
  description: string | null;
  type: string | null;
  url: string | null;
  siteName: string | null;
  locale: string | null;
  localeAlternates: string[];
  determiner: string | null;
  images: OgVisual[];
  videos: OgVisual[];
  audios: OgAudio[];
}

/** The article:* properties of the Open Graph article type. */
export interface OgArticle {
  publishedTime: string | null;
  modifiedTime: string | null;
  expirationTime: string | null;
  section: string | null;
  authors: string[];
  tags: string[];
}

export interface TwitterCard {
  card: string | null;
  site: string | null;
  siteId: string | null;
  creator: string | null;
  creatorId: string | null;
  title: string | null;
  description: string | null;
  image: string | null;
  imageAlt: string | null;
  player: { url: string; width: number | null; height: number | null; stream: string | null } | null;
}

export interface StandardMeta {
  description: string | null;
  author: string | null;
  keywords: string[];
  themeColor: string | null;
  robots: string | null;
  generator: string | null;
  applicationName: string | null;
  /** <meta http-equiv="content-language">. */
  contentLanguage: string | null;
}

/** The fields of one schema.org JSON-LD item that previews and readers use. */
export interface JsonLdItem {
  types: string[];
  name: string | null;
  headline: string | null;
  description: string | null;
  datePublished: string | null;
  dateModified: string | null;
  authors: string[];
  publisher: string | null;
  image: string | null;
  url: string | null;
}

export interface PageIcon {
  url: string;
  /** The rel as written, lower-case: "icon", "shortcut icon", "apple-touch-icon"... */
  rel: string;
  sizes: string | null;
  type: string | null;
  /** True for /favicon.ico assumed because the page declares no icon. */
  fallback: boolean;
}

export interface OEmbedLink {
  url: string;
  format: 'json' | 'xml';
  title: string | null;
}

export interface FeedLink {
  url: string;
  format: 'rss' | 'atom' | 'json';
  title: string | null;
}

export interface LinkPreview {
  title: string | null;
  description: string | null;
  image: string | null;
  siteName: string | null;
  url: string;
  type: string;
  favicon: string;
}

/** Where each preview value was found; null when there was none. */
export interface PreviewSources {
  title: 'og:title' | 'twitter:title' | 'json-ld' | 'title' | 'h1' | null;
  description: 'og:description' | 'twitter:description' | 'description' | 'json-ld' | null;
  image: 'og:image' | 'twitter:image' | 'json-ld' | 'image_src' | null;
  siteName: 'og:site_name' | 'json-ld' | 'application-name' | 'hostname';
  url: 'og:url' | 'canonical' | 'page';
  type: 'og:type' | 'default';
  favicon: 'icon' | 'apple-touch-icon' | 'favicon.ico';
}

export interface PageMetadata {
  /** The page's own address. */
  url: string;
  /** What relative URLs resolved against: the page URL or its <base href>. */
  baseUrl: string;
  /** <html lang>. */
  lang: string | null;
  /** The document's <title>. */
  title: string | null;
  /** The first <h1>'s text. */
  h1: string | null;
  canonical: string | null;
  preview: LinkPreview;
  from: PreviewSources;
  openGraph: OpenGraph;
  article: OgArticle;
  twitter: TwitterCard;
  meta: StandardMeta;
  jsonLd: JsonLdItem[];
  /** JSON-LD blocks that were not valid JSON and were skipped. */
  invalidJsonLdBlocks: number;
  icons: PageIcon[];
  oembed: OEmbedLink[];
  feeds: FeedLink[];
}
