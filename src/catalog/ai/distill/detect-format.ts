import type { DocumentFormat } from './document.ts';

const HTML_START = /^\s*(?:<\?xml[^>]*>\s*)?(?:<!--[\s\S]*?-->\s*)*<(?:!doctype\s+html|html|head|body)\b/i;
const HTML_TAG = /<(?:p|div|span|a|h[1-6]|ul|ol|li|table|tr|td|br|section|article|main|pre|code|em|strong|b|i|img|meta|link|script|style)\b[^>]*>/gi;
/** troff requests (".TH", ".SH", ".B") at line starts, as man pages are written. */
const TROFF_REQUEST = /^\.(?:TH|SH|SS|PP|LP|P|TP|IP|HP|RS|RE|B|I|BR|BI|IR|RB|RI|IB|br|sp|nf|fi|Dd|Dt|Nm|Nd|Sh|Op|Fl|Ar|It|Bl|El)\b/gm;
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
/** Lines only Markdown writes: headings, fences, links and images, list items. */
const MARKDOWN_LINE = /^(?:#{1,6}\s+\S|(?:```|~~~)|\s{0,3}[-*+]\s+\S|.*\]\([^)\s]+\)|.*`[^`]+`)/;

/** Guesses whether a document is HTML, Markdown, troff (a man page's source) or plain text from its own markup. */
export function detectFormat(content: string): DocumentFormat {
  if (HTML_START.test(content)) return 'html';
  const head = content.slice(0, 200_000);
  const lines = head.split('\n');
  const troff = head.match(TROFF_REQUEST)?.length ?? 0;
  if (troff >= 5 && (/^\.(?:TH|Dd|Dt)\s/m.test(head) || troff >= lines.length / 10)) return 'troff';
  const tags = head.match(HTML_TAG)?.length ?? 0;
  const markdownLines = lines.filter((line) => MARKDOWN_LINE.test(line)).length;
  const signs = MARKDOWN_SIGNS.filter((sign) => sign.test(head)).length;
  // A README often carries some HTML (a centred logo, badges, <details>); it stays Markdown while its
  // own markup is at least as common as the tags. A page made of tags is HTML.
  if (tags >= 2 && tags >= lines.length / 4 && tags > markdownLines * 2) return 'html';
  // A man page or licence can show one sign by accident (a "----" rule); two make Markdown.
  if (signs >= 2 || /^#{1,6}\s+\S/m.test(head)) return 'markdown';
  if (tags >= 2) return 'html';
  return 'text';
}
