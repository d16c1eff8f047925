// Words as ICU's word segmentation finds them, so Chinese or Japanese text without spaces is
// counted in words too, not as one long token.

const segmenter = new Intl.Segmenter('und', { granularity: 'word' });

export function countWords(text: string): number {
  let count = 0;
  for (const segment of segmenter.segment(text)) if (segment.isWordLike) count += 1;
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
