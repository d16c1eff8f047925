import type { DocumentFormat } from './document.ts';

const HTML_START = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b/i;
const HTML_TAG = /<(?:p|div|span|a|h[1-6]|ul|ol|li|table|tr|td|br|section|article|main|pre|code|em|strong|b|i|img|meta|link|script|style)\b[^>]*>/gi;
const MARKDOWN_SIGNS: readonly RegExp[] = [
  /^#{1,6}\s+\S/m, // ATX heading
  /^\S.*\n(?:={3,}|-{3,})\s*$/m, // setext heading
  /^(?:```|~~~)/m, // fenced code
  /\[[^\]\n]+\]\([^)\s]+\)/, // inline link
  /^\s{0,3}[-*+]\s+\S/m, // bullet list
  /`[^`\n]+`/, // inline code
  /^\s{0,3}>\s?\S/m, // blockquote
  /^\|.*\|\s*$/m, // table row
];

/** Guesses whether a document is HTML, Markdown or plain text from its own markup. */
export function detectFormat(content: string): DocumentFormat {
  if (HTML_START.test(content)) return 'html';
  const tags = content.match(HTML_TAG)?.length ?? 0;
  const lines = content.split('\n').length;
  // Markdown may carry some inline HTML; a page made of tags is HTML.
  if (tags >= 2 && tags >= lines / 4) return 'html';
  const signs = MARKDOWN_SIGNS.filter((sign) => sign.test(content)).length;
  // A man page or licence can show one sign by accident (a "----" rule); two make Markdown.
  if (signs >= 2 || /^#{1,6}\s+\S/m.test(content)) return 'markdown';
  if (tags >= 2) return 'html';
  return 'text';
}
