// A name the document only mentions to say it is absent ("there is no `parseAll()`", "does not
// support XML", "was removed in 2.0") is not something the document is about: reporting it as a
// keyword or entity would contradict the text.

const NEGATION = /\b(?:not|no|never|without|cannot|lacks?|neither|nor|removed|dropped|no longer|instead of)\b|n't\b/i;
const MAX_MENTIONS = 3;

/** The sentence around `index`: from the previous sentence end (or line) to the next. */
function sentenceAround(text: string, index: number, length: number): string {
  const before = text.slice(Math.max(0, index - 300), index);
  const start = Math.max(before.search(/[^.!?\n]*$/), 0);
  const after = text.slice(index + length, index + length + 300);
  const end = after.search(/[.!?\n]/);
  return before.slice(start) + text.slice(index, index + length) + (end < 0 ? after : after.slice(0, end));
}

/** Whether every mention of `term` in `text` (a few at most) sits in a negated sentence. */
export function onlyDenied(term: string, text: string): boolean {
  const mentions: number[] = [];
  for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + term.length)) {
    mentions.push(at);
    if (mentions.length > MAX_MENTIONS) return false;
  }
  return mentions.length > 0 && mentions.every((at) => NEGATION.test(sentenceAround(text, at, term.length)));
}
