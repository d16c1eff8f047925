// Density: a fact is served with the clause that carries its value, not the whole sentence, so more
// facts fit the same budget. Extractive: clauses are cut from the sentence at its own punctuation,
// never reworded; a cut is marked with "…".
import { squash } from './document.ts';
import { splitSentences } from './sentences.ts';

/** A clause shorter than this says too little alone ("or 1 by default"): its neighbours are taken with it. */
const MIN_CLAUSE_CHARACTERS = 45;
const MAX_CLAUSE_CHARACTERS = 110;
/** Where a sentence divides into clauses: after ; : , and dashes, before a parenthesis that gives no value. */
const CLAUSE_BREAK = /(?<=[;,:])\s+|\s+(?=[—–]\s)|(?<=\s[—–])\s+|\s+(?=\((?![^)]*\d)[^)]*\))/g;
const DEFAULT_OR_BOUND = /\b(?:defaults?|by default|maximum|minimum|at most|at least|up to|no more than|range|limit(?:s|ed)?|between)\b/i;

function clausesOf(sentence: string): string[] {
  const clauses: string[] = [];
  let start = 0;
  for (const match of sentence.matchAll(CLAUSE_BREAK)) {
    const end = match.index;
    if (end > start) clauses.push(sentence.slice(start, end));
    start = end + match[0].length;
  }
  if (start < sentence.length) clauses.push(sentence.slice(start));
  return clauses;
}

const withCuts = (text: string, cutBefore: boolean, cutAfter: boolean) => `${cutBefore ? '…' : ''}${text.replace(/[,;:]$/, '')}${cutAfter ? '…' : ''}`;

/** A window of words around `at` (a character index), within `max` characters. */
function wordsAround(sentence: string, at: number, max: number): string {
  const start = Math.max(0, sentence.lastIndexOf(' ', Math.max(0, at - Math.floor(max / 3))) + 1);
  const startAt = at - Math.floor(max / 3) <= 0 ? 0 : start;
  let end = Math.min(sentence.length, startAt + max);
  if (end < sentence.length) end = Math.max(sentence.lastIndexOf(' ', end), at + 1);
  return withCuts(sentence.slice(startAt, end).trim(), startAt > 0, end < sentence.length);
}

/**
 * The clause of `sentence` holding `value` (its first occurrence, case-insensitive), with the clauses
 * before it while it is too short to name its subject; the sentence itself when it is short already.
 */
export function clauseAround(sentence: string, value: string, max = MAX_CLAUSE_CHARACTERS): string {
  const text = squash(sentence);
  if (text.length <= max) return text;
  const at = value ? text.toLowerCase().indexOf(value.toLowerCase()) : 0;
  if (at < 0) return wordsAround(text, 0, max);
  const clauses = clausesOf(text);
  const starts: number[] = [];
  let offset = 0;
  for (const clause of clauses) {
    offset = text.indexOf(clause, offset);
    starts.push(offset);
    offset += clause.length;
  }
  let last = 0;
  while (last + 1 < starts.length && starts[last + 1]! <= at) last += 1;
  // The value may run over a break ("1,024"): the clause goes on to where the value ends.
  let to = last;
  while (to + 1 < clauses.length && starts[to]! + clauses[to]!.length < at + value.length) to += 1;
  let from = last;
  const span = () => text.slice(starts[from]!, starts[to]! + clauses[to]!.length);
  while (span().length < MIN_CLAUSE_CHARACTERS && from > 0 && text.slice(starts[from - 1]!, starts[to]! + clauses[to]!.length).length <= max) from -= 1;
  while (span().length < MIN_CLAUSE_CHARACTERS && to + 1 < clauses.length && text.slice(starts[from]!, starts[to + 1]! + clauses[to + 1]!.length).length <= max) to += 1;
  if (span().length > max) return wordsAround(text, at, max);
  return withCuts(span(), from > 0, to < clauses.length - 1);
}

/** The first clause of a text, long enough to say something: what an option or function does. */
export function firstClause(text: string, max = MAX_CLAUSE_CHARACTERS): string {
  return clauseAround(splitSentences(squash(text))[0] ?? '', '', max);
}

/**
 * A definition's meaning made compact: the first clause of its first sentence, then the clause of each
 * later sentence that states a default or a bound with its value ("The default value is 1").
 */
export function compactMeaning(meaning: string, max = MAX_CLAUSE_CHARACTERS): string {
  const sentences = splitSentences(squash(meaning));
  const [first, ...rest] = sentences;
  if (!first) return '';
  const parts = [firstClause(first, max)];
  for (const sentence of rest) {
    if (!DEFAULT_OR_BOUND.test(sentence) || !/\d|["'`‘“]/.test(sentence)) continue;
    parts.push(clauseAround(sentence, DEFAULT_OR_BOUND.exec(sentence)![0], max));
  }
  return parts.join(' ');
}


/** A sentence that gives a value: a number, an option, a name written as code, a quoted term, an acronym or a proper name. */
const GIVES_VALUE = /\d|(?<![\w-])--?[a-z]|\w\([^()]*\)|\b[a-z]+[A-Z]\w*|\b\w+[._]\w+|["`‘“]|\b[A-Z]{2,}\b|(?<=\S\s)[A-Z][a-z]+/;

/**
 * A paragraph without the sentences that give no value and state no rule (`says`: requires, never,
 * only, default…), each run of them left out marked "…"; its first sentence is always kept.
 */
export function denseParagraph(text: string, says: RegExp): string {
  const sentences = splitSentences(text);
  if (sentences.length < 2) return text;
  const kept: string[] = [];
  let skipped = false;
  sentences.forEach((sentence, i) => {
    if (i > 0 && !GIVES_VALUE.test(sentence) && !says.test(sentence)) {
      skipped = true;
      return;
    }
    kept.push(skipped ? `… ${sentence}` : sentence);
    skipped = false;
  });
  return skipped ? `${kept.join(' ')} …` : kept.join(' ');
}

