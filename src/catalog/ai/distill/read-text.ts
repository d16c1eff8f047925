// A plain-text reader for the layouts long texts actually use: underlined headings (RFC and
// reStructuredText style), numbered or ALL-CAPS section titles (licences, specifications),
// man pages rendered by `man` (sections at column 0, body indented, options as "-x" terms
// followed by a more indented description), bullet lists and indented code.
import { squash, type Block, type ReadDocument } from './document.ts';

const UNDERLINE = /^\s*(=+|-+|~+|\*+|\^+)\s*$/;
const BULLET = /^(\s*)([-*•+·o]|\d{1,3}[.)]|\([a-z0-9]{1,3}\)|[a-z][.)])\s+(\S.*)$/;
const NUMBERED_TITLE = /^(?:(\d+(?:\.\d+)*)\.?|[IVXLC]+\.|[A-Z]\.|(?:Section|Chapter|Appendix|Part)\s+[\dA-Z]+[.:]?)\s+\S/;
const MAN_HEADER = /^(\S+)\([0-9][0-9a-zA-Z]*\)\s{2,}.*\s{2,}\S+\([0-9][0-9a-zA-Z]*\)\s*$/;
const MAN_FOOTER = /^\S.*\s{3,}.*\s{3,}\S+(?:\([0-9][0-9a-zA-Z]*\))?\s*$/;
const CODE_SYMBOLS = /[{}=<>|;$]/;
const HEADING_FORBIDDEN = /[{}=<>|;$[\]]/;

const RUN_IN_TITLE = /^(\d{1,2}(?:\.\d{1,2})*\.?)\s+([\p{Lu}][^.!?]{2,70}?)\.\s+(\p{Lu}.*)$/u;
const RUN_IN_ITEM_TITLE = /^([\p{Lu}][^.!?]{2,70}?)\.\s+(\p{Lu}.*)$/u;
const MINOR_WORDS = new Set(['a', 'an', 'and', 'as', 'at', 'by', 'for', 'from', 'in', 'of', 'on', 'or', 'the', 'to', 'with', 'under']);
/** "Grant of Copyright License", "Definitions": capitalised words, small words excepted. */
const isTitleCase = (text: string) => text.split(/\s+/).every((word) => MINOR_WORDS.has(word) || /^[("'“]*[\p{Lu}\d]/u.test(word));

const indentOf = (line: string) => /^[ \t]*/.exec(line)![0].replace(/\t/g, '        ').length;
const isBlank = (line: string | undefined) => line === undefined || line.trim() === '';

function letterStats(text: string): { letters: number; upper: number } {
  let letters = 0;
  let upper = 0;
  for (const character of text) {
    if (/\p{L}/u.test(character)) {
      letters += 1;
      if (character !== character.toLowerCase()) upper += 1;
    }
  }
  return { letters, upper };
}

/** The indentation most prose lines share: headings sit left of it in man pages. */
function bodyIndentOf(lines: readonly string[]): number {
  const counts = new Map<number, number>();
  for (const line of lines) {
    if (line.trim().split(/\s+/).length < 5) continue;
    const indent = indentOf(line);
    counts.set(indent, (counts.get(indent) ?? 0) + 1);
  }
  let best = 0;
  let bestCount = -1;
  for (const [indent, count] of counts) if (count > bestCount || (count === bestCount && indent < best)) [best, bestCount] = [indent, count];
  return best;
}

function headingLevel(line: string, previous: string | undefined, next: string | undefined, bodyIndent: number): number | undefined {
  const text = line.trim();
  const words = text.split(/\s+/);
  if (text.length < 2 || text.length > 72 || words.length > 10) return undefined;
  if (!/\p{L}/u.test(text) || /[,;:]$/.test(text) || HEADING_FORBIDDEN.test(text)) return undefined;
  if (!isBlank(previous)) return undefined;
  const indent = indentOf(line);
  const numbered = NUMBERED_TITLE.exec(text);
  // "1. Definitions." is a title; "0 Successful termination." and "2 Fatal error. This means..." are not.
  const afterNumber = numbered ? text.replace(/^\S+\s+/, '') : text;
  if (/[.!?]\s/.test(afterNumber)) return undefined;
  if (/[.!?]$/.test(text) && !(numbered && words.length <= 6 && /^\S*\.\s/.test(text))) return undefined;
  // "1. cd into the source directory.": a step of a numbered list, not a title ("1. Definitions.").
  if (numbered && /[.!?]$/.test(text) && !isTitleCase(afterNumber.replace(/[.!?]$/, ''))) return undefined;
  const { letters, upper } = letterStats(text);
  const nextIndent = isBlank(next) ? Infinity : indentOf(next!);
  // ALL CAPS: no two lower-case letters in a row ("NAME", "TERMS AND CONDITIONS", not "tar -t FILE").
  if (letters >= 2 && upper / letters >= 0.8 && !/\p{Ll}{2}/u.test(text)) return indent === 0 ? 1 : 2;
  if (numbered && (isBlank(next) || nextIndent > indent)) return Math.min(4, numbered[1] ? numbered[1].split('.').length : 1);
  if (!/^[\p{Lu}\d]/u.test(text)) return undefined;
  if (indent < bodyIndent && nextIndent >= bodyIndent) return indent === 0 ? 1 : 2;
  // A short line standing alone at the body's margin, or centred well right of it ("Preamble").
  if (isBlank(next) && words.length <= 8 && (bodyIndent === indent || indent >= bodyIndent + 8)) return 2;
  return undefined;
}

/** "-x, --long=ARG" at the start of a line, then what follows it. */
const OPTION_LINE = /^(\s*)(--?[\w?][\w-]*(?:[=[][^\s,]*)?(?:,\s*--?[\w?][\w-]*(?:[=[][^\s,]*)?)*)(\s+)(\S.*)$/;

/** The column option meanings start at in a rendered man page: where the line under a term standing alone is indented. */
function optionMeaningIndentOf(lines: readonly string[]): number | undefined {
  const counts = new Map<number, number>();
  lines.forEach((line, i) => {
    const next = lines[i + 1];
    if (/^\s*--?[A-Za-z0-9?]\S*(?:,\s*--?\S+)*\s*$/.test(line) && !isBlank(next) && indentOf(next!) > indentOf(line)) counts.set(indentOf(next!), (counts.get(indentOf(next!)) ?? 0) + 1);
  });
  const [best] = [...counts].sort((a, b) => b[1] - a[1] || a[0] - b[0]);
  return best && best[1] >= 2 ? best[0] : undefined;
}

/** An option line whose meaning starts in the meanings' column, or after a gap of two spaces or more. */
function inlineOption(line: string, meaningIndent: number | undefined): { term: string; meaning: string } | undefined {
  const match = OPTION_LINE.exec(line);
  if (!match) return undefined;
  const [, lead = '', term = '', gap = '', meaning = ''] = match;
  const column = indentOf(lead) + term.length + gap.length;
  if (meaningIndent === undefined || indentOf(lead) >= meaningIndent) return undefined;
  return column === meaningIndent || (gap.length >= 2 && column <= meaningIndent + 2) ? { term, meaning } : undefined;
}

/** Rejoins words that `man` or a typesetter split at the end of a line. */
function dehyphenate(text: string): string {
  return text.replace(/\u2010\n[ \t]*/g, '').replace(/([a-z])-\n[ \t]*([a-z])/g, '$1-$2');
}

/** A line of running words ("When --reflink[=always] is specified, perform a lightweight copy, where"): prose that names an option, not code. */
export function isWordy(line: string): boolean {
  const tokens = line.trim().split(/\s+/);
  return tokens.length >= 6 && tokens.filter((token) => /^[\p{L}'’(]+[\p{L}'’),.;:]*$/u.test(token)).length >= tokens.length * 0.7;
}

function looksLikeCode(lines: readonly string[]): boolean {
  const symbolic = lines.filter((line) => (CODE_SYMBOLS.test(line) && !isWordy(line)) || /^\s*(?:#include|\/\/|\/\*|\*\/|\$ )/.test(line)).length;
  return symbolic >= Math.max(2, lines.length * 0.5);
}

/**
 * Lines set in from the text's margin that read as commands, not sentences ("  make dist", "  perl tests/vg_regtest
 * memcheck"): a plain-text README's examples. No line ends a sentence or runs on in words, and each starts with a
 * lower-case word, a path or a variable.
 */
export function isIndentedCommand(lines: readonly string[], indent: number, bodyIndent: number): boolean {
  if (indent < bodyIndent + 2 || lines.length > 6) return false;
  return lines.every((line) => !/[.!?]["')]?$/.test(line) && !isWordy(line) && /^(?:[\p{Ll}.\/~$]|[A-Z_]+=)\S*/u.test(line.trim()));
}

/** A name of one to four capitalised words on a line of its own ("Dimitry Andric", "Andrei V. Shetuhin", "Yuri"). */
const NAME_LINE = /^[\p{Lu}][\p{L}'’.-]*(?:\s+(?:[\p{Lu}][\p{L}'’.-]*|van|von|de|der|da|le))*$/u;
const MAX_NAME_WORDS = 4;
/**
 * A credits list, one name a line: a list, read with its commas, not a run of capitalised words that would make one
 * entity of them all.
 */
export const isNameList = (lines: readonly string[]) =>
  lines.length >= 3 && lines.every((line) => NAME_LINE.test(line) && line.split(/\s+/).length <= MAX_NAME_WORDS);

/** A shell comment's mark at the start of a line ("# Build, and park the install tree", a lone "#"). */
export const SHELL_COMMENT = /^\s*#(?:\s+|$)/;

/**
 * A paragraph's lines split where shell comments start or stop (round 14): a README's steps are "# …" lines explaining
 * the command lines under them. The comments, without their marks, are prose (a lone "#" parts two of them); the lines
 * between them are code when they read as code. Undefined when the paragraph has no comment line, or only one and nothing else.
 */
export function commentRuns(lines: readonly string[]): { comment: boolean; lines: string[] }[] | undefined {
  const comments = lines.filter((line) => SHELL_COMMENT.test(line)).length;
  if (comments === 0 || (comments === 1 && lines.length === 1)) return undefined;
  const runs: { comment: boolean; lines: string[] }[] = [];
  for (const line of lines) {
    const comment = SHELL_COMMENT.test(line);
    const text = comment ? line.replace(SHELL_COMMENT, '') : line;
    // A lone "#" parts two comments as a blank line parts two paragraphs.
    if (runs.at(-1)?.comment !== comment || (comment && !text)) runs.push({ comment, lines: [] });
    if (text) runs.at(-1)!.lines.push(text);
  }
  return runs.filter((run) => run.lines.length > 0);
}

export function readText(content: string): ReadDocument {
  const lines = dehyphenate(content.replace(/\r\n?/g, '\n').replace(/\f/g, '\n'))
    .split('\n')
    .map((line) => line.replace(/\s+$/, ''));
  // A rendered man page starts with "TAR(1)   GNU TAR Manual   TAR(1)" and ends with a footer of three columns.
  const firstContent = lines.findIndex((line) => line.trim() !== '');
  let edition: string | undefined;
  if (firstContent >= 0 && MAN_HEADER.test(lines[firstContent]!)) {
    lines[firstContent] = '';
    let lastContent = lines.length - 1;
    while (lastContent > firstContent && lines[lastContent]!.trim() === '') lastContent -= 1;
    if (lastContent > firstContent && MAN_FOOTER.test(lines[lastContent]!)) {
      // The footer names the page's source and date: "GNU grep 3.8      2019-12-29      GREP(1)".
      const columns = lines[lastContent]!.trim().split(/\s{3,}/).slice(0, -1);
      if (columns.some((column) => /\d/.test(column))) edition = columns.join(', ');
      lines[lastContent] = '';
    }
  }

  const bodyIndent = bodyIndentOf(lines);
  const meaningIndent = optionMeaningIndentOf(lines);
  const blocks: Block[] = [];
  let paragraph: string[] = [];
  let paragraphIndent = Infinity;
  let item: { indent: number; lines: string[]; number?: string } | undefined;

  const flush = () => {
    if (item) {
      const text = squash(item.lines.join(' '));
      const titled = item.number ? RUN_IN_ITEM_TITLE.exec(text) : null;
      if (titled && isTitleCase(titled[1]!)) {
        blocks.push({ kind: 'heading', level: 2, text: `${item.number} ${titled[1]}` });
        blocks.push({ kind: 'paragraph', text: titled[2]! });
      } else if (text) blocks.push({ kind: 'item', text, ...(item.number ? { numbered: true } : {}) });
      item = undefined;
    }
    const runs = paragraph.length > 0 ? commentRuns(paragraph) : undefined;
    if (runs) {
      for (const run of runs) {
        if (run.comment) blocks.push({ kind: 'paragraph', text: squash(run.lines.join(' ')) });
        else blocks.push(looksLikeCode(run.lines) || run.lines.every((line) => !isWordy(line)) ? { kind: 'code', text: run.lines.join('\n') } : { kind: 'paragraph', text: squash(run.lines.join(' ')) });
      }
      paragraph = [];
      paragraphIndent = Infinity;
    }
    if (paragraph.length > 0) {
      if (isNameList(paragraph)) blocks.push({ kind: 'paragraph', text: `${paragraph.join(', ')}.` });
      else if (looksLikeCode(paragraph) || isIndentedCommand(paragraph, paragraphIndent, bodyIndent)) blocks.push({ kind: 'code', text: paragraph.join('\n') });
      else {
        const text = squash(paragraph.join(' '));
        // Licences and specifications open numbered sections inline: "2. Grant of Copyright License. Subject to…".
        const titled = RUN_IN_TITLE.exec(text);
        if (titled && isTitleCase(titled[2]!)) {
          blocks.push({ kind: 'heading', level: titled[1]!.split('.').filter(Boolean).length + 1, text: `${titled[1]} ${titled[2]}` });
          blocks.push({ kind: 'paragraph', text: titled[3]! });
        } else blocks.push({ kind: 'paragraph', text });
      }
      paragraph = [];
      paragraphIndent = Infinity;
    }
  };

  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    if (isBlank(line)) {
      flush();
      continue;
    }
    const next = lines[i + 1];
    if (next !== undefined && UNDERLINE.test(next) && !UNDERLINE.test(line) && next.trim().length >= line.trim().length * 0.6 && paragraph.length === 0) {
      flush();
      const mark = next.trim()[0];
      blocks.push({ kind: 'heading', level: mark === '=' ? 1 : mark === '-' ? 2 : 3, text: squash(line) });
      i += 1;
      continue;
    }
    if (UNDERLINE.test(line)) {
      flush();
      continue;
    }
    const level = paragraph.length === 0 && !item ? headingLevel(line, lines[i - 1], next, bodyIndent) : undefined;
    if (level !== undefined) {
      flush();
      blocks.push({ kind: 'heading', level, text: squash(line) });
      continue;
    }
    const indent = indentOf(line);
    const bullet = BULLET.exec(line);
    // A man-page option: "-c, --create" on its own line, its description indented below it.
    const optionTerm = /^\s*--?[A-Za-z0-9?]/.test(line) && next !== undefined && !isBlank(next) && indentOf(next) > indent;
    if (bullet || optionTerm) {
      flush();
      item = { indent, lines: [bullet ? bullet[3]! : `${line.trim()} —`], ...(bullet && /^\d/.test(bullet[2]!) ? { number: bullet[2]! } : {}) };
      continue;
    }
    // A short option with its meaning on the same line, in the column the other meanings start at ("-b     like --backup …").
    const inline = inlineOption(line, meaningIndent);
    if (inline) {
      flush();
      item = { indent, lines: [`${inline.term} — ${inline.meaning}`] };
      continue;
    }
    // A numbered clause may wrap at its own margin ("2. Waiver. To the greatest extent…\nof, applicable law").
    // Or wrap back to the left margin mid-sentence ("  1. You may copy and distribute verbatim copies of the Program's source\ncode as you receive it").
    const midSentence = item !== undefined && bullet === null && !optionTerm && (!/[.!?:]["')]?$/.test(item.lines.at(-1)!) || /^\s*[\p{Ll}\d(]/u.test(line)) && /\p{Ll}/u.test(line);
    if (item && (indent > item.indent || (item.number !== undefined && indent >= item.indent) || midSentence)) {
      item.lines.push(line.trim());
      continue;
    }
    if (item) flush();
    paragraph.push(line.trim());
    paragraphIndent = Math.min(paragraphIndent, indent);
  }
  flush();
  return { format: 'text', ...titleOf(blocks, lines), ...(edition ? { edition } : {}), blocks, codeTerms: [] };
}

function titleOf(blocks: readonly Block[], lines: readonly string[]): { title?: string } {
  const nameHeading = blocks.findIndex((block) => block.kind === 'heading' && block.text === 'NAME');
  if (nameHeading >= 0 && blocks[nameHeading + 1]?.kind === 'paragraph') return { title: blocks[nameHeading + 1]!.text };
  const first = blocks[0];
  if (first && (first.kind === 'heading' || (first.kind === 'paragraph' && first.text.length <= 120))) return { title: first.text };
  const heading = blocks.slice(0, 5).find((block) => block.kind === 'heading');
  if (heading) return { title: heading.text };
  const firstLine = lines.find((line) => line.trim() !== '')?.trim();
  return firstLine && firstLine.length <= 100 ? { title: firstLine } : {};
}
