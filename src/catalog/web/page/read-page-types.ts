// What every page reader (HTML, text, PDF) returns: the page as Markdown with its metadata.

export interface PageLink {
  text: string;
  url: string;
}

export interface ReadPage {
  title: string | null;
  byline: string | null;
  siteName: string | null;
  /** A language tag as the page declares it ("en", "pt-BR"), or null. */
  language: string | null;
  description: string | null;
  publishedTime: string | null;
  canonicalUrl: string | null;
  markdown: string;
  wordCount: number;
  /** Absolute http(s) links of the main content, first text kept for each URL, at most MAX_PAGE_LINKS. */
  links: PageLink[];
  excerpt: string | null;
  /** True when Readability found the page's article; false for fallbacks and non-HTML documents. */
  readability: boolean;
  /** The page count of a PDF; null for other documents. */
  pages: number | null;
}

export const MAX_PAGE_LINKS = 200;

/** The fields of a document that carries no metadata of its own. */
export const NO_METADATA = {
  title: null,
  byline: null,
  siteName: null,
  language: null,
  description: null,
  publishedTime: null,
  canonicalUrl: null,
  readability: false,
  pages: null,
} as const satisfies Partial<ReadPage>;
