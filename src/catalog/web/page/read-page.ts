// The page readers: HTML, text and PDF documents as Markdown with their metadata.
export { readHtmlPage } from './read-html-page.ts';
export { readPdfPage } from './read-pdf-page.ts';
export { readTextPage } from './read-text-page.ts';
export { MAX_PAGE_LINKS, type PageLink, type ReadPage } from './read-page-types.ts';
