// What every reader (HTML, Markdown, plain text) turns a document into.

export type DocumentFormat = 'html' | 'markdown' | 'troff' | 'text';

export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  /**
   * A list item, a definition or an option description; `numbered` for "1." items (a licence's clauses); `stanza` for a
   * machine-readable copyright file's files stanza (its reader's), who holds the copyright and under which licence.
   */
  | { kind: 'item'; text: string; numbered?: boolean; stanza?: Stanza }
  /** Preformatted text or a code block: kept out of sentences, still searched for facts. */
  | { kind: 'code'; text: string }
  /** One table row, cells joined by " | ". */
  | { kind: 'row'; text: string };

/** A machine-readable copyright file's files stanza: its holders (the Copyright field) and its licence's short name. */
export interface Stanza {
  holders: string;
  licence: string;
}

/** One release of a changelog, newest first in an answer. */
export interface Release {
  version: string;
  /** As the changelog writes it ("2019-10-11", "30 Nov 2022"); empty when it gives none. */
  date: string;
  /** Who made the release, when the changelog says (Debian changelogs do): its maintainer, then "; changes by" the authors a team upload names. */
  by?: string;
  /** The suite a Debian upload went to, when not the usual "unstable": "bookworm-security", "experimental". */
  distribution?: string;
  /** Its entries, each one line. */
  changes: string[];
}

export interface ReadDocument {
  format: DocumentFormat;
  title?: string;
  blocks: Block[];
  /** Terms the author marked as code (`inline code`, <code>), in order of appearance. */
  codeTerms: string[];
  /** The version and date a man page gives for itself in its header or footer: "GNU grep 3.8, 2019-12-29". */
  edition?: string;
  /** A Debian changelog's newest upload as its header and trailer write it: "libxcb (1.15-1), Thu, 04 Aug 2022". */
  newest?: string;
  /** Releases, when a reader recognised a changelog format of its own (Debian's). */
  releases?: Release[];
}

/** Collapses runs of whitespace and trims. */
export const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** `text` matched literally inside a regular expression. */
export const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The text a reader sees: headings, prose, items and rows, one block per line. */
export function plainText(document: ReadDocument): string {
  return document.blocks.map((block) => block.text).join('\n');
}
