// Information units: what a piece of the answer says, as a set of weighted units, so that the answer can
// be chosen by how much NEW information each piece adds per token (budgeted maximum coverage, see
// cover.ts). Units are the document's own words, lower-cased and crudely stemmed, weighted by what they
// are: code names, options, paths and numbers say more than plain words; a clause stating a rule
// (must, never, only, by default, requires, fails…) carries a unit of its own.
import { isStopWord } from './sentences.ts';

export type Units = ReadonlyMap<string, number>;

/** Unit weights, by what the unit is. */
export const UNIT_WEIGHTS = {
  word: 1,
  /** A capitalised word inside a sentence: a name. */
  name: 1.5,
  /** A code name: snake_case, camelCase, dotted, with (), a path. */
  code: 2.5,
  /** A command-line option: -x, --long-name. */
  option: 2.5,
  /** A number, version or date part. */
  number: 1.5,
  /** A clause stating a rule: what is required, what fails, what is never done, a default. */
  rule: 2,
} as const;

const RULE = /\b(?:requires?|required|must|fails?|never|always|cannot|can't|does not|doesn't|do not|don't|will not|won't|is not|isn't|are not|only|by default|defaults? to|deprecated|removed|instead|at most|at least|maximum|minimum|exit status)\b/i;
const TOKEN = /--?[\p{L}\d][\w-]*(?:\[[^\]\s]*\])?|[\p{L}\p{N}_$@~/]+(?:[._'/:-][\p{L}\p{N}_$]+)*(?:\(\)|\+)?/gu;

/** A crude stem: plural and verb endings off, so "tools" and "tool", "closed" and "close" are one unit. */
function stem(word: string): string {
  if (word.length <= 4) return word;
  return word.replace(/(?:ies|es|s|ed|ing|ly)$/, '') || word;
}

function kindOf(token: string, first: boolean): keyof typeof UNIT_WEIGHTS | undefined {
  if (/^--?[\p{L}\d]/u.test(token)) return 'option';
  if (/\d/.test(token) && !/\p{L}{3}/u.test(token)) return 'number';
  if (/[_./$@~+]|\(\)$|\p{Ll}\p{Lu}/u.test(token) || /^\p{Lu}{2,}\d*$|^\p{Lu}{2,}-?\d/u.test(token)) return 'code';
  const lower = token.toLowerCase();
  if (lower.length < 2 || isStopWord(lower)) return undefined;
  if (!first && /^\p{Lu}/u.test(token)) return 'name';
  return 'word';
}

/** The units a text says, each with its weight; `rule` adds the text's own rule unit when it states one. */
export function unitsOf(original: string): Map<string, number> {
  const units = new Map<string, number>();
  // A disclaimer in capitals is no run of acronyms.
  const letters = original.match(/\p{L}/gu)?.length ?? 0;
  const text = (original.match(/\p{Lu}/gu)?.length ?? 0) > letters * 0.6 && letters > 20 ? original.toLowerCase() : original;
  let first = true;
  for (const match of text.matchAll(TOKEN)) {
    const token = match[0].replace(/[.:'-]+$/, '');
    const kind = kindOf(token, first);
    first = /[.!?]$/.test(match[0]) || text[match.index + match[0].length] === '.';
    if (!kind) continue;
    const key = kind === 'word' || kind === 'name' ? stem(token.toLowerCase()) : token.toLowerCase();
    units.set(key, Math.max(units.get(key) ?? 0, UNIT_WEIGHTS[kind]));
  }
  if (RULE.test(text)) units.set(`rule:${text.slice(0, 60).toLowerCase()}`, UNIT_WEIGHTS.rule);
  return units;
}
