// A block-level Markdown reader (CommonMark's common constructs, GitHub tables, front matter):
// enough to find headings, prose, list items, code and tables. Inline markup is reduced to text.
import { squash, type Block, type ReadDocument } from './document.ts';

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
/** A list item; a nested one may be indented with tabs as well as spaces. */
const BULLET = /^([ \t]{0,12})([-*+]|\d{1,9}[.)])[ \t]+(.*)$/;
const QUOTE = /^ {0,3}>[ \t]?(.*)$/;
const TABLE_ROW = /^ {0,3}\|.*\|[ \t]*$|^[^|\n]+\|[^|\n]+\|/;
const TABLE_RULE = /^ {0,3}\|?[ \t]*:?-{2,}:?[ \t]*(?:\|[ \t]*:?-{2,}:?[ \t]*)*\|?[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:\s*\S+/;
/** GitHub's alert boxes open with their kind: "> [!NOTE]", "> [!CAUTION]". */
const ALERT_MARKER = /^\s*\[!(?:NOTE|TIP|IMPORTANT|WARNING|CAUTION)\]\s*$/i;
const HTML_BLOCK_LINE = /^ {0,3}<\/?[a-zA-Z][^>]*>\s*$/;
const HTML_HEADING_LINE = /^ {0,3}<h([1-6])\b[^>]*>(.*)<\/h\1>\s*$/i;

/** Link texts that navigate rather than say something: "[src]", "source", "¶", "edit", "back to top". */
export const NAVIGATION_LINK = /^\W*(?:src|source|view source|edit|permalink|top|back to top|#|¶|§)\W*$/i;

/**
 * A list item that is nothing but a link to a place in the same page, named in words: an entry of a table of
 * contents. An entry naming a function (a code span) is an API index, which says what the page offers.
 */
const CONTENTS_ENTRY = /^\s*\[(?!`)[^\]]+\]\(#[^()\s]*\)\s*$/;

/** Stands for the n-th code span while the rest of the line is reduced (private-use characters). */
const codeMark = (n: number) => `\uE000${n}\uE001`;

/** Named character references READMEs write (HTML's own table has two thousand): arrows, dashes, marks. */
const NAMED_CHARACTERS: Record<string, string> = {
  nbsp: ' ', amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", copy: '©', reg: '®', trade: '™', mdash: '—', ndash: '–', hellip: '…',
  rarr: '→', larr: '←', harr: '↔', uarr: '↑', darr: '↓', Rarr: '⇒', rArr: '⇒', lArr: '⇐', hArr: '⇔', check: '✓', times: '×', middot: '·',
  bull: '•', deg: '°', plusmn: '±', le: '≤', ge: '≥', ne: '≠', laquo: '«', raquo: '»', lsquo: '‘', rsquo: '’', ldquo: '“', rdquo: '”', sect: '§', para: '¶',
};

/** A character reference as the character it stands for; one not known is left as written. */
function entityText(whole: string, decimal?: string, hex?: string, name?: string): string {
  const code = decimal !== undefined ? Number(decimal) : hex !== undefined ? Number.parseInt(hex, 16) : undefined;
  if (code !== undefined) return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  return NAMED_CHARACTERS[name ?? ''] ?? whole;
}

/**
 * Inline Markdown and stray HTML reduced to the words a reader sees; code spans are collected and
 * kept verbatim: they are set aside before emphasis and escapes are read, so `__proto__` stays whole.
 */
export function inlineText(markdown: string, codeTerms?: string[]): string {
  const spans: string[] = [];
  const reduced = markdown
    // Backslash escapes stand for their character and never for markup: set aside like code.
    .replace(/\\([\\`*_{}[\]()#+\-.!|>~<])/g, (_, character: string) => `\uE002${character.charCodeAt(0)}\uE003`)
    .replace(/(`+)(?!`)([\s\S]*?[^`])\1(?!`)/g, (_, _fence: string, code: string) => {
      const text = code.length > 2 && code.startsWith(' ') && code.endsWith(' ') ? code.slice(1, -1) : code;
      codeTerms?.push(text.trim());
      spans.push(text);
      return codeMark(spans.length - 1);
    })
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, '') // images
    .replace(/!\[([^\]]*)\]\[[^\]]*\]/g, '')
    .replace(/\[\s*\](?:\([^)]*\)|\[[^\]]*\])/g, '') // links left empty by their image (badges)
    .replace(/\[([^\]]+)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"]*")?\)/g, (_, text: string) => (NAVIGATION_LINK.test(text) ? '' : text)) // inline links keep their text
    .replace(/\[([^\]]+)\]\[[^\]]*\]/g, '$1') // reference links
    .replace(/\[([^\]]+)\](?!\()/g, (whole, text: string) => (/^[ xX]$/.test(text) ? whole : text)) // shortcut references
    .replace(/<(https?:\/\/[^>\s]+)>/g, '$1') // autolinks
    .replace(/<\/?[a-zA-Z][^>]*>/g, ' ') // inline HTML
    .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
    .replace(/(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\1(?![\w*])/g, '$2')
    .replace(/~~(.+?)~~/g, '$1')
    .replace(/&(?:#(\d{1,7})|#[xX]([\da-fA-F]{1,6})|([A-Za-z]{2,8}));/g, (whole, decimal?: string, hex?: string, name?: string) => entityText(whole, decimal, hex, name));
  return squash(
    reduced.replace(/\uE000(\d+)\uE001/g, (_, n: string) => spans[Number(n)] ?? '').replace(/\uE002(\d+)\uE003/g, (_, code: string) => String.fromCharCode(Number(code))),
  );
}

function frontMatterTitle(lines: string[]): { title?: string; skip: number } {
  if (lines[0]?.trim() !== '---') return { skip: 0 };
  const end = lines.findIndex((line, i) => i > 0 && /^(?:---|\.\.\.)\s*$/.test(line));
  if (end < 0) return { skip: 0 };
  const titleLine = lines.slice(1, end).find((line) => /^title\s*:/i.test(line));
  const title = titleLine?.replace(/^title\s*:\s*/i, '').replace(/^["']|["']$/g, '').trim();
  return { ...(title ? { title } : {}), skip: end + 1 };
}

/**
 * The text without its HTML comments ("<!-- prettier-ignore -->", a generated file's "<!-- auto-generated from
 * README_js.md -->"), which a rendered page never shows: those opening a line, as an HTML block does. A comment inside a fenced
 * code block is the code's, and one inside a sentence may be in a code span, quoted.
 */
export function withoutComments(text: string): string {
  const parts = text.split(/(^ {0,3}(?:`{3,}|~{3,}).*$)/m);
  let fenced = false;
  return parts
    .map((part) => {
      if (FENCE.test(part) && !part.includes('\n')) {
        fenced = !fenced;
        return part;
      }
      return fenced ? part : part.replace(/(^|\n)[ \t]{0,3}<!--[\s\S]*?-->/g, '$1');
    })
    .join('');
}

/**
 * A README that opens with its logo, named in the image's text ("![decimal.js](…/decimaljs.png)"), and has no top heading is
 * titled by that name, not by its first section's heading ("Features"; round 13). Words that only say it is an image are no name.
 */
function logoName(firstLine: string): string | undefined {
  const alt = /^\s*\[?!\[([^\]]+)\]\([^)]*\)(?:\]\([^)]*\))?\s*$/.exec(firstLine)?.[1]?.trim();
  return alt && !/^(?:logo|banner|image|header|screenshot|icon)$/i.test(alt) && !/\b(?:build|badge|status|coverage|version|downloads?)\b/i.test(alt) ? alt : undefined;
}

export function readMarkdown(content: string): ReadDocument {
  const lines = withoutComments(content.replace(/\r\n?/g, '\n')).split('\n');
  const blocks: Block[] = [];
  const codeTerms: string[] = [];
  const front = frontMatterTitle(lines);
  let paragraph: string[] = [];
  let item: string[] | undefined;
  let numbered = false;
  /** Inside an HTML block (a line that is a tag, up to the next blank line): an indented line there is HTML, not code. */
  let htmlBlock = false;

  const flush = () => {
    // A table of contents repeats the headings; read first, it would take the place of the page's opening.
    if (item && CONTENTS_ENTRY.test(item.join(' '))) item = undefined;
    if (item) {
      const text = inlineText(item.join(' '), codeTerms);
      if (text) blocks.push({ kind: 'item', text, ...(numbered ? { numbered } : {}) });
      item = undefined;
    }
    if (paragraph.length > 0) {
      const text = inlineText(paragraph.join(' '), codeTerms);
      if (text) blocks.push({ kind: 'paragraph', text });
      paragraph = [];
    }
  };

  for (let i = front.skip; i < lines.length; i += 1) {
    const line = lines[i]!;
    const fence = FENCE.exec(line);
    if (fence) {
      flush();
      const marker = fence[1]!;
      const body: string[] = [];
      for (i += 1; i < lines.length && !lines[i]!.trimStart().startsWith(marker); i += 1) body.push(lines[i]!);
      blocks.push({ kind: 'code', text: body.join('\n') });
      continue;
    }
    if (line.trim() === '') {
      flush();
      htmlBlock = false;
      continue;
    }
    const htmlHeading = HTML_HEADING_LINE.exec(line);
    if (htmlHeading) {
      flush();
      const text = inlineText(htmlHeading[2]!, codeTerms);
      if (text) blocks.push({ kind: 'heading', level: Number(htmlHeading[1]), text });
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      flush();
      const text = inlineText(atx[2] ?? '', codeTerms);
      if (text) blocks.push({ kind: 'heading', level: atx[1]!.length, text });
      continue;
    }
    const next = lines[i + 1];
    if (paragraph.length === 0 && !item && next !== undefined && SETEXT.exec(next) && !BULLET.test(line) && line.trim().length > 0 && !THEMATIC_BREAK.test(line)) {
      const text = inlineText(line, codeTerms);
      if (text) blocks.push({ kind: 'heading', level: next.trim().startsWith('=') ? 1 : 2, text });
      i += 1;
      continue;
    }
    if (THEMATIC_BREAK.test(line) || LINK_DEFINITION.test(line)) {
      flush();
      continue;
    }
    if (TABLE_RULE.test(line) && line.includes('-')) continue;
    if (TABLE_ROW.test(line) && (line.trimStart().startsWith('|') || TABLE_RULE.test(next ?? ''))) {
      flush();
      const cells = line.trim().replace(/^\||\|$/g, '').split(/(?<!\\)\|/).map((cell) => inlineText(cell, codeTerms)).filter(Boolean);
      if (cells.length > 0) blocks.push({ kind: 'row', text: cells.join(' | ') });
      continue;
    }
    if (/^( {4}|\t)/.test(line) && paragraph.length === 0 && !item && !htmlBlock) {
      const body: string[] = [];
      for (; i < lines.length && (/^( {4}|\t)/.test(lines[i]!) || lines[i]!.trim() === ''); i += 1) body.push(lines[i]!);
      i -= 1;
      blocks.push({ kind: 'code', text: body.join('\n').trim() });
      continue;
    }
    const quote = QUOTE.exec(line);
    // A quote's empty line ends its paragraph; a GitHub alert's marker ("[!CAUTION]") is a style, not text.
    if (quote && (quote[1]!.trim() === '' || ALERT_MARKER.test(quote[1]!))) {
      flush();
      continue;
    }
    const bullet = BULLET.exec(quote ? quote[1]! : line);
    if (bullet) {
      flush();
      item = [bullet[3]!];
      numbered = /^\d/.test(bullet[2]!);
      continue;
    }
    if (HTML_BLOCK_LINE.test(line)) {
      flush();
      htmlBlock = true;
      continue;
    }
    const text = quote ? quote[1]! : line;
    if (item) item.push(text);
    else paragraph.push(text);
  }
  flush();
  const firstHeading = blocks.find((block) => block.kind === 'heading');
  const title = front.title ?? (firstHeading?.kind === 'heading' && firstHeading.level === 1 ? firstHeading.text : (logoName(lines[front.skip] ?? '') ?? (firstHeading?.kind === 'heading' && firstHeading.level <= 2 ? firstHeading.text : undefined)));
  return { format: 'markdown', ...(title ? { title } : {}), blocks, codeTerms };
}
