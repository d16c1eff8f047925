// Long text is translated in pieces no larger than a provider takes in one request (MyMemory: 500
// bytes of UTF-8). Pieces are cut at line ends (always: providers do not reliably keep line
// breaks), then between sentences, then between words, and only for a single overlong word
// between graphemes (user-perceived characters). Whitespace around a piece is kept aside and
// put back, so the translated pieces join into the text's own layout.

export type Measure = (text: string) => number;

/** Size as UTF-8 bytes (MyMemory's `q` limit). */
export const utf8Bytes: Measure = (text) => Buffer.byteLength(text, 'utf8');
/** Size as code points (LibreTranslate's per-request character limit). */
export const codePoints: Measure = (text) => [...text].length;

export interface TextPiece {
  /** Whitespace before the part to translate, kept as is. */
  lead: string;
  /** What is sent for translation; '' for a piece that is only whitespace. */
  core: string;
  /** Whitespace after it (spaces, line breaks), kept as is. */
  trail: string;
}

const sentences = new Intl.Segmenter(undefined, { granularity: 'sentence' });
const words = new Intl.Segmenter(undefined, { granularity: 'word' });
const graphemes = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** Pieces whose cores each measure at most `limit`; their lead + core + trail, in order, are the text. */
export function splitForTranslation(text: string, limit: number, measure: Measure): TextPiece[] {
  const chunks: string[] = [];
  let current = '';
  const flush = () => {
    if (current) chunks.push(current);
    current = '';
  };
  for (const line of text.split(/(?<=\n)/)) {
    for (const atom of atomsOf(line, limit, measure)) {
      if (current && measure((current + atom).trim()) > limit) flush();
      current += atom;
    }
    flush();
  }
  return chunks.map(pieceOf);
}

/** The pieces joined back, each core replaced by its translation (same order as the cores that were not ''). */
export function joinTranslated(pieces: readonly TextPiece[], translations: readonly string[]): string {
  let next = 0;
  return pieces.map((piece) => (piece.core ? `${piece.lead}${translations[next++] ?? ''}${piece.trail}` : `${piece.lead}${piece.trail}`)).join('');
}

/** Sentences of a line, with any sentence too long for one request cut into words, and any word into graphemes. */
function atomsOf(line: string, limit: number, measure: Measure): string[] {
  const atoms: string[] = [];
  for (const { segment } of sentences.segment(line)) {
    if (measure(segment.trim()) <= limit) {
      atoms.push(segment);
      continue;
    }
    for (const { segment: word } of words.segment(segment)) {
      if (measure(word.trim()) <= limit) atoms.push(word);
      else atoms.push(...Array.from(graphemes.segment(word), (grapheme) => grapheme.segment));
    }
  }
  return atoms;
}

function pieceOf(chunk: string): TextPiece {
  const [, lead = '', core = '', trail = ''] = /^(\s*)([\s\S]*?)(\s*)$/.exec(chunk) ?? [];
  return { lead, core, trail };
}
