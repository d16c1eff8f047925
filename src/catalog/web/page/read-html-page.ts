// An HTML page as a read page: Mozilla Readability (Firefox Reader View) finds the article on a
// linkedom DOM, as the distill tool's reader does; when it finds none, or keeps only a fragment
// of the page, the body without navigation and page furniture is read instead.
import { Readability } from '@mozilla/readability';
import { extractMetadataFromDocument } from '../opengraph/extract-metadata.ts';
import type { PageMetadata } from '../opengraph/metadata-types.ts';
import { cleanContent } from './clean-content.ts';
import { contentLinks } from './content-links.ts';
import { markdownOfContent } from './html-to-markdown.ts';
import { parseDocument } from './parse-document.ts';
import type { ReadPage } from './read-page-types.ts';
import { visibleText } from './visible-text.ts';
import { countWords, excerptOf } from './word-count.ts';

type Article = NonNullable<ReturnType<Readability<string>['parse']>>;

/** An article of this many characters is trusted as it is; a shorter one is compared with the page. */
const ENOUGH_ARTICLE_TEXT = 500;

export function readHtmlPage(html: string, pageUrl: string): ReadPage {
  const document = parseDocument(html);
  const metadata = extractMetadataFromDocument(document, pageUrl);
  // Readability changes the document it reads, so the metadata is taken first.
  const article = new Readability(document, { charThreshold: 200, keepClasses: true }).parse();

  const { main, fromReadability } = chooseContent(html, pageUrl, metadata.baseUrl, article);
  const text = visibleText(main);

  return {
    title: titleOf(metadata, article),
    byline: clean(article?.byline) ?? metadata.meta.author ?? metadata.jsonLd.flatMap((item) => item.authors)[0] ?? null,
    siteName: clean(article?.siteName) ?? (metadata.from.siteName === 'hostname' ? null : metadata.preview.siteName),
    language: metadata.lang ?? clean(article?.lang) ?? metadata.meta.contentLanguage ?? metadata.openGraph.locale,
    description: metadata.preview.description,
    publishedTime: clean(article?.publishedTime) ?? metadata.article.publishedTime ?? metadata.jsonLd.map((item) => item.datePublished).find(Boolean) ?? null,
    canonicalUrl: metadata.canonical ?? metadata.openGraph.url,
    markdown: markdownOfContent(main),
    wordCount: countWords(text),
    links: contentLinks(main, pageUrl),
    excerpt: clean(article?.excerpt) ?? metadata.preview.description ?? excerptOf(text),
    readability: fromReadability,
    pages: null,
  };
}

/** Readability's article, unless it is too short to trust and the page without its furniture reads better. */
function chooseContent(html: string, pageUrl: string, baseUrl: string, article: Article | null): { main: HTMLElement; fromReadability: boolean } {
  const articleHtml = article?.content;
  const articleText = squash(article?.textContent);
  if (articleHtml && articleText.length >= ENOUGH_ARTICLE_TEXT) return { main: cleanContent(articleHtml, baseUrl), fromReadability: true };
  const body = cleanContent(html, pageUrl, { dropChrome: true });
  const bodyText = squash(body.textContent);
  // A short article is kept when it is most of the page; one longer than the page without its
  // navigation is that navigation put back in.
  if (articleHtml && articleText.length >= bodyText.length * 0.5 && articleText.length <= bodyText.length) {
    return { main: cleanContent(articleHtml, baseUrl), fromReadability: true };
  }
  return { main: body, fromReadability: false };
}

/**
 * Readability's title drops the " | Site" suffix of <title>; but on a page with no title of any
 * kind it may pick any line, so there the first <h1> is used.
 */
function titleOf(metadata: PageMetadata, article: Article | null): string | null {
  if (metadata.from.title === 'h1' || metadata.from.title === null) return metadata.preview.title;
  return clean(article?.title) ?? metadata.preview.title;
}

function squash(text: string | null | undefined): string {
  return (text ?? '').replace(/\s+/g, ' ').trim();
}

function clean(text: string | null | undefined): string | null {
  return squash(text) || null;
}
