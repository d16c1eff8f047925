// The document's opening, read as a reader reads it: its first blocks after the title, verbatim,
// markup and chrome removed, up to a share of the budget. On short documents the first few hundred
// tokens already hold what it is, how to install or invoke it and its first options; the extractor
// keeps different facts than the opening does, so the answer spends the rest of the budget on what
// lies beyond it.
import { compactMeaning, denseParagraph } from './compact-clause.ts';
import { INFORMATIVE } from './rank-sentences.ts';
import { isUniversalOption } from './key-facts.ts';
import { squash, type Block, type ReadDocument } from './document.ts';
import type { DocumentKind } from './document-kind.ts';
import { maskUrls } from './mask-urls.ts';
import { splitSentences } from './sentences.ts';

export interface Opening {
  /** The opening's text, blocks joined by newlines; cut at a word with "…" when the last block did not fit. */
  text: string;
  /** Index of the first block the opening did not read in full. */
  end: number;
}

/** Lines of a code block the opening quotes: an install line or a call, not a whole example. */
const CODE_LINES = 3;
/** Sections that are chrome, not content: a table of contents, badges, sponsors. */
const CHROME_SECTION = /^(?:table of contents|contents|toc|sponsors?|backers|badges?|license|licence|copyright|see also|reporting bugs|bugs)$/i;
/** Section headings whose own text says nothing (the opening drops every heading; these also end nothing). */
const NAME_SECTION = /^name$/i;

/**
 * How the opening quotes an item "term — meaning" (an option, a definition): whole, or as its term and the first
 * clause of its meaning with the clauses giving a default or a bound, so that more of a list fits.
 */
export type ItemStyle = 'verbatim' | 'compact';
const TERM_AND_MEANING = /^(.{1,60}?) — (.+)$/;

/**
 * A block's text as the opening quotes it: URLs (and the brackets they leave) out, whitespace squashed, a code
 * block's first lines; sentences matching `skip` (a copyright line, "Mandatory arguments to long options…") left out.
 */
function blockText(block: Block, skip: RegExp | undefined, items: ItemStyle): string {
  if (block.kind === 'code') {
    const lines = block.text.split('\n').map((line) => line.trim()).filter(Boolean);
    return lines.slice(0, CODE_LINES).join('\n') + (lines.length > CODE_LINES ? ' …' : '');
  }
  const text = squash(maskUrls(block.text).replace(/<\s*>/g, ''));
  const term = items === 'compact' && block.kind === 'item' ? TERM_AND_MEANING.exec(text) : null;
  // "-h, --help — Show summary of options.": every program has it; it says nothing about this one.
  if (term && isUniversalOption(term[1]!)) return '';
  if (term) return `${term[1]} — ${compactMeaning(term[2]!)}`;
  const kept = skip?.test(text) ? splitSentences(text).filter((sentence) => !skip.test(sentence)).join(' ') : text;
  return items === 'compact' && block.kind === 'paragraph' ? denseParagraph(kept, INFORMATIVE) : kept;
}

/** A list of this many one-word items or more ("black", "red", … under "text colors") is quoted as one line, its first few named. */
const MIN_WORD_LIST = 6;
const WORD_LIST_SHOWN = 5;
const ONE_WORD = /^[\p{L}\p{N}_$.@/-]{1,30}$/u;

/** How many one-word items run from block `at` (0 when fewer than MIN_WORD_LIST). */
function wordListAt(blocks: readonly Block[], at: number, stop: number): number {
  let end = at;
  while (end < stop && blocks[end]!.kind === 'item' && ONE_WORD.test(squash(blocks[end]!.text))) end += 1;
  return end - at >= MIN_WORD_LIST ? end - at : 0;
}

/**
 * A run of one-word items as the opening quotes it (round 14): its first few, and how many there are. Quoted one a line,
 * @colors/colors' 50 colour names took the whole opening share, and its tagline and usage came after it.
 */
function wordListText(blocks: readonly Block[]): string {
  const words = blocks.map((block) => squash(block.text));
  return `${words.slice(0, WORD_LIST_SHOWN).join(', ')}, … (${words.length} items)`;
}

/**
 * The share of the budget the opening takes: most of it on a short document (its opening is most of
 * what it says), less on a long one (facts spread over many sections), little on a changelog (its
 * newest releases are its opening, and they are served as releases).
 */
export function openingShare(kind: DocumentKind, textTokens: number): number {
  if (kind === 'changelog') return 0.12;
  const [shortText, longText, shortShare, longShare] = kind === 'licence' ? [600, 4000, 0.4, 0.2] : [800, 6000, 0.4, 0.2];
  const longness = Math.min(1, Math.max(0, Math.log(textTokens / shortText) / Math.log(longText / shortText)));
  return shortShare - (shortShare - longShare) * longness;
}

/** Cuts `text` at the last word boundary within `tokens` tokens. */
function cutTo(text: string, tokens: number, countTokens: (text: string) => number): string {
  const words = text.split(' ');
  let [low, high] = [0, words.length];
  while (low < high) {
    const mid = Math.ceil((low + high) / 2);
    if (countTokens(JSON.stringify(`${words.slice(0, mid).join(' ')} …`)) <= tokens) low = mid;
    else high = mid - 1;
  }
  return low === 0 ? '' : `${words.slice(0, low).join(' ')} …`;
}

/**
 * The opening of `document` within `tokens` tokens (as a JSON string), from `start` (a changelog's
 * preface ends at its first release: `stop`). Headings and chrome sections are left out; the title
 * and text equal to it are not repeated.
 */
export function openingOf(document: ReadDocument, title: string, tokens: number, countTokens: (text: string) => number, stop = document.blocks.length, skip?: RegExp, items: ItemStyle = 'verbatim'): Opening {
  const titleLower = title.toLowerCase();
  const parts: string[] = [];
  let chrome = false;
  let end = 0;
  for (let i = 0; i < stop; i += 1) {
    end = i;
    const block = document.blocks[i]!;
    if (block.kind === 'heading') {
      chrome = CHROME_SECTION.test(squash(block.text));
      continue;
    }
    const words = items === 'compact' ? wordListAt(document.blocks, i, stop) : 0;
    const text = words > 0 ? wordListText(document.blocks.slice(i, i + words)) : blockText(block, skip, items);
    if (words > 0) i += words - 1;
    // A label standing as a paragraph ("Table of Contents" in a <summary>) is chrome too.
    if (chrome || CHROME_SECTION.test(text) || !/[\p{L}\p{N}]/u.test(text) || text.toLowerCase() === titleLower || (NAME_SECTION.test(document.blocks[i - 1]?.kind === 'heading' ? document.blocks[i - 1]!.text : '') && titleLower.includes(text.toLowerCase()))) continue;
    const joined = [...parts, text].join('\n');
    if (countTokens(JSON.stringify(joined)) <= tokens) {
      parts.push(text);
      continue;
    }
    const room = tokens - countTokens(JSON.stringify(parts.join('\n'))) - 1;
    const cut = room > 8 ? cutTo(text, room, countTokens) : '';
    if (cut) parts.push(cut);
    return { text: parts.join('\n'), end };
  }
  return { text: parts.join('\n'), end: stop };
}

/**
 * The whole document as its opening reads it, when all of it fits in `tokens` tokens: a text shorter than the
 * budget is served whole (headings, chrome sections and long code left out as in any opening), not padded with
 * extracts of itself that would repeat it.
 */
export function wholeOf(document: ReadDocument, title: string, tokens: number, countTokens: (text: string) => number, skip?: RegExp): string | undefined {
  if (tokens <= 0) return undefined;
  const opening = openingOf(document, title, tokens, countTokens, document.blocks.length, skip);
  return opening.end === document.blocks.length && opening.text ? opening.text : undefined;
}
