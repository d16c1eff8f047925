// What every reader (HTML, Markdown, plain text) turns a document into.

export type DocumentFormat = 'html' | 'markdown' | 'text';

export type Block =
  | { kind: 'heading'; level: number; text: string }
  | { kind: 'paragraph'; text: string }
  /** A list item, a definition or an option description. */
  | { kind: 'item'; text: string }
  /** Preformatted text or a code block: kept out of sentences, still searched for facts. */
  | { kind: 'code'; text: string }
  /** One table row, cells joined by " | ". */
  | { kind: 'row'; text: string };

export interface ReadDocument {
  format: DocumentFormat;
  title?: string;
  blocks: Block[];
  /** Terms the author marked as code (`inline code`, <code>), in order of appearance. */
  codeTerms: string[];
}

/** Collapses runs of whitespace and trims. */
export const squash = (text: string): string => text.replace(/\s+/g, ' ').trim();

/** The text a reader sees: headings, prose, items and rows, one block per line. */
export function plainText(document: ReadDocument): string {
  return document.blocks.map((block) => block.text).join('\n');
}
