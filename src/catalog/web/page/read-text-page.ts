// Text documents as read pages: plain text, CSV and XML as they are, Markdown as it is (its first
// heading is the title), JSON pretty-printed in a fenced block.
import { fencedCode } from './code-fence.ts';
import { parseContentType } from './content-type.ts';
import { NO_METADATA, type ReadPage } from './read-page-types.ts';
import { textLinks } from './text-links.ts';
import { countWords, excerptOf } from './word-count.ts';

const MARKDOWN_TYPES = new Set(['text/markdown', 'text/x-markdown', 'text/md']);

export function readTextPage(text: string, url: string, contentType: string | undefined): ReadPage {
  const { mimeType } = parseContentType(contentType);
  if (isJson(mimeType)) return readJson(text, url);
  const markdown = MARKDOWN_TYPES.has(mimeType) || (mimeType === 'text/plain' && /\.(?:md|markdown)$/i.test(new URL(url).pathname));
  return {
    ...NO_METADATA,
    title: markdown ? firstHeading(text) : null,
    markdown: text,
    wordCount: countWords(text),
    links: textLinks(text, url, markdown),
    excerpt: excerptOf(markdown ? text.replace(/^#{1,6}\s.*$/gm, '') : text),
  };
}

const isJson = (mimeType: string) => mimeType === 'application/json' || mimeType === 'text/json' || mimeType.endsWith('+json');

function readJson(text: string, url: string): ReadPage {
  let pretty = text.trim();
  try {
    pretty = JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    // Not valid JSON after all: shown as sent.
  }
  return { ...NO_METADATA, markdown: fencedCode(pretty, 'json'), wordCount: countWords(text), links: textLinks(text, url, false), excerpt: null };
}

function firstHeading(markdown: string): string | null {
  const heading = /^#\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1];
  return heading?.trim() || null;
}
