// Splits English text into the lower-cased word tokens GloVe 6B was trained on. Its corpus was
// tokenised the Stanford way ("don't" -> "do" "n't"); the packaged vocabulary has no "n't" or
// "'re", so contractions are spelt out in full, and possessive "'s" is dropped.

const CONTRACTIONS: readonly [RegExp, string][] = [
  [/\bcan't\b/g, 'can not'],
  [/\bwon't\b/g, 'will not'],
  [/\bshan't\b/g, 'shall not'],
  [/n't\b/g, ' not'],
  [/'re\b/g, ' are'],
  [/'m\b/g, ' am'],
  [/'ll\b/g, ' will'],
  [/'ve\b/g, ' have'],
  [/'d\b/g, ' would'],
  [/'s\b/g, ''],
];

/** Runs of letters and digits, possibly joined by inner hyphens ("well-known", "mid-1990s"). */
const WORD = /[\p{L}\p{N}]+(?:-[\p{L}\p{N}]+)*/gu;

export function wordTokens(text: string): string[] {
  let normalised = text.normalize('NFKC').toLowerCase().replace(/[\u2018\u2019\u02bc]/g, "'");
  for (const [pattern, replacement] of CONTRACTIONS) normalised = normalised.replace(pattern, replacement);
  return normalised.match(WORD) ?? [];
}

/** Word tokens, or, for a text with no letters or digits at all ("🙂 !!"), its visible characters. */
export function embeddingTokens(text: string): string[] {
  const words = wordTokens(text);
  return words.length > 0 ? words : [...text.normalize('NFKC')].filter((character) => /\S/u.test(character));
}
