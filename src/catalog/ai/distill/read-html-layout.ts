// Plain text set in HTML line by line: a README published as a web page, in a <pre> or as lines ended by <br>
// (DocBook's "literallayout"). Read block by block, each line would be a paragraph of its own and a sentence
// wrapped over three lines three fragments; the plain-text reader joins wrapped lines into paragraphs, finds the
// underlined headings and keeps indented command lines as code.
import { isWordy, readText, SHELL_COMMENT } from './read-text.ts';
import type { Block } from './document.ts';

/** The part of linkedom's node API the HTML readers use. */
export interface DomNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<DomNode>;
  getAttribute?(name: string): string | null;
}

export const nameOf = (node: DomNode) => node.nodeName.toLowerCase();

/** Line breaks set with <br> before a block counts as text laid out in lines. */
const MIN_BREAKS = 6;
/** Lines a text needs, and the share of them that are running words, to be prose rather than code or a table. */
const MIN_LINES = 6;
const MIN_WORDY_SHARE = 0.4;
/**
 * A long text with this many lines of running words is prose between its commands, at a lower share (round 14: valgrind's
 * README.android, 60 of 166 lines running words, the rest the shell lines they explain).
 */
const MANY_WORDY_LINES = 20;
const MIN_WORDY_SHARE_OF_MANY = 0.25;

/** The element's text with each <br> a line break; the source's own line breaks are not the text's. */
function brokenText(node: DomNode): string {
  let text = '';
  for (const child of Array.from(node.childNodes)) {
    if (child.nodeType === 3) text += (child.textContent ?? '').replace(/\n/g, '');
    else if (child.nodeType === 1) text += nameOf(child) === 'br' ? '\n' : brokenText(child);
  }
  return text;
}

const directBreaks = (node: DomNode) => Array.from(node.childNodes).filter((child) => child.nodeType === 1 && nameOf(child) === 'br').length;

/**
 * Text of running words over enough lines: prose laid out by hand, not a code listing. A shell comment's words are prose
 * (round 14: a README of shell steps, each explained in "# …" lines, is instructions to read, not a listing).
 */
export function isProseLayout(text: string): boolean {
  const lines = text.split('\n').filter((line) => line.trim() !== '');
  const wordy = lines.filter((line) => isWordy(line.replace(SHELL_COMMENT, ''))).length;
  return lines.length >= MIN_LINES && (wordy >= lines.length * MIN_WORDY_SHARE || (wordy >= MANY_WORDY_LINES && wordy >= lines.length * MIN_WORDY_SHARE_OF_MANY));
}

/**
 * The blocks of a <pre> holding prose laid out in lines, read as plain text; undefined for a code listing.
 */
export function layoutBlocks(node: DomNode): Block[] | undefined {
  if (nameOf(node) !== 'pre') return undefined;
  const text = node.textContent ?? '';
  return isProseLayout(text) ? readText(text).blocks : undefined;
}

/**
 * Blocks whose lines end in <br> (DocBook's literallayout) become a <pre> of the same lines, before Readability
 * reads the page: it turns each run of <br> into paragraphs of its own, which splits a sentence wrapped over lines.
 */
export function preformatLineBreaks(document: Document): void {
  for (const element of Array.from(document.querySelectorAll('p, div, td, blockquote'))) {
    const node = element as unknown as DomNode;
    if (directBreaks(node) < MIN_BREAKS) continue;
    const text = brokenText(node);
    if (!isProseLayout(text)) continue;
    const pre = document.createElement('pre');
    pre.textContent = text;
    element.replaceWith(pre);
  }
}
