// A PDF as a read page through unpdf (PDF.js): its text page by page, its title, author and
// dates from the document information, its link annotations.
import { extractLinks, extractText, getDocumentProxy, getMeta } from 'unpdf';
import { ToolError } from '../../tool.ts';
import { MAX_PAGE_LINKS, NO_METADATA, type ReadPage } from './read-page-types.ts';
import { countWords, excerptOf } from './word-count.ts';

/** Between pages in the Markdown: a thematic break. */
const PAGE_BREAK = '\n\n---\n\n';

export async function readPdfPage(bytes: Uint8Array, url: string): Promise<ReadPage> {
  let document: Awaited<ReturnType<typeof getDocumentProxy>>;
  try {
    // PDF.js takes ownership of the buffer it is given, so it gets a copy.
    document = await getDocumentProxy(new Uint8Array(bytes));
  } catch (error) {
    throw new ToolError(422, 'unreadable_pdf', `The PDF at ${url} could not be opened (${describe(error)}). You were not charged.`);
  }
  try {
    const [{ info }, { text: pageTexts }, { links }] = await Promise.all([
      getMeta(document, { parseDates: true }),
      extractText(document, { mergePages: false }),
      extractLinks(document),
    ]);
    const pages = pageTexts.map((page) => page.replace(/[ \t]+\n/g, '\n').trim());
    const text = pages.join('\n\n');
    const field = (name: string) => stringField(info, name);
    return {
      ...NO_METADATA,
      title: field('Title'),
      byline: field('Author'),
      language: field('Language'),
      description: field('Subject'),
      publishedTime: dateField(info, 'CreationDate'),
      markdown: pages.filter(Boolean).join(PAGE_BREAK),
      wordCount: countWords(text),
      links: [...new Set(links)].filter((link) => /^https?:\/\//i.test(link)).slice(0, MAX_PAGE_LINKS).map((link) => ({ text: link, url: link })),
      excerpt: excerptOf(text),
      pages: document.numPages,
    };
  } catch (error) {
    throw new ToolError(422, 'unreadable_pdf', `The text of the PDF at ${url} could not be read (${describe(error)}). You were not charged.`);
  } finally {
    await document.loadingTask.destroy();
  }
}

function stringField(info: Readonly<Record<string, unknown>>, name: string): string | null {
  const value = info[name];
  return typeof value === 'string' ? value.replace(/\s+/g, ' ').trim() || null : null;
}

function dateField(info: Readonly<Record<string, unknown>>, name: string): string | null {
  const value = info[name];
  return value instanceof Date && !Number.isNaN(value.getTime()) ? value.toISOString() : null;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
