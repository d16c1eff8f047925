// Words: whitespace-separated tokens holding a letter or digit; text in scripts written without
// spaces (Chinese, Japanese, Thai, Lao, Khmer, Burmese) is split by ICU's word segmentation.

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
const WORD_CHARACTER = /[\p{L}\p{N}]/u;
const UNSPACED_SCRIPT = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u;
/**
 * V8's segmenter slows down quadratically on long strings (a 40,000-character text takes 10 times
 * longer than a 20,000-character one), so unspaced text is segmented in pieces of this length.
 */
const SEGMENT_PIECE = 500;

export function countWords(text: string): number {
  let count = 0;
  for (const token of text.split(/\s+/)) {
    if (!WORD_CHARACTER.test(token)) continue;
    count += UNSPACED_SCRIPT.test(token) ? segmentedWords(token) : 1;
  }
  return count;
}

function segmentedWords(token: string): number {
  let count = 0;
  for (let start = 0; start < token.length; start += SEGMENT_PIECE) {
    // A piece ending inside a word counts that word twice: one word in SEGMENT_PIECE characters at most.
    for (const segment of segmenter.segment(token.slice(start, start + SEGMENT_PIECE))) if (segment.isWordLike) count += 1;
  }
  return count;
}

/** The start of a text, cut at a word boundary near `maxLength` characters, or null when empty. */
export function excerptOf(text: string, maxLength = 200): string | null {
  const squashed = text.replace(/\s+/g, ' ').trim();
  if (!squashed) return null;
  if (squashed.length <= maxLength) return squashed;
  const cut = squashed.slice(0, maxLength);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > maxLength * 0.6 ? cut.slice(0, lastSpace) : cut).replace(/[\s,;:.–—-]+$/, '')}…`;
}
