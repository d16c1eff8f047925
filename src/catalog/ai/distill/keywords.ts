// Key terms: the identifiers a technical text is about (`addHook`, safe.directory, --create,
// zpipe.c) and its most characteristic words, by frequency.
import { escapeRegExp } from './document.ts';
import { contentWords } from './sentences.ts';

export interface Keyword {
  text: string;
  /** 0: an identifier of the text, 1: a call only its examples make, 2: a plain word. Lower tiers rank first. */
  tier: number;
  score: number;
  first: number;
}

/** Words too general to say what a text is about, however often they occur. */
const GENERIC = new Set(
  ('default defaults value values example examples instance option options function functions object objects string strings number numbers ' +
    'data file files name names type types list lists time times case cases error errors argument arguments parameter parameters method methods ' +
    'property properties result results return returns returned call calls called need needs needed pass passed passing true false null ' +
    'following follows order part parts section sections note notes information info available possible specified specific specify given ' +
    'change changes changed support supported supports work works working set sets setting settings line lines want different same able ' +
    'mode modes user users allow allows allowed provide provides provided include includes included including without within value ' +
    'also either every already always never still even much many more most less least however therefore thus instead rather another ' +
    'first last next previous current new old other others each both thing things something anything nothing description details ' +
    'version versions release released fix fixes fixed add adds added update updates updated remove removed bump docs readme test tests').split(/\s+/),
);

/** Looks like code: dots, underscores, inner capitals, letters with digits, a leading dash, call parentheses. */
const IDENTIFIER = /^(?:--?[a-z][\w-]*|[a-z]+\d+[a-z\d]*|[\w$]+(?:[._:/-][\w$]+)+(?:\(\))?|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z][\w$]*(?:\(\))?|[\w$]+\(\))$/;

function countOccurrences(text: string, term: string): { count: number; first: number } {
  let count = 0;
  let first = -1;
  for (let at = text.indexOf(term); at >= 0; at = text.indexOf(term, at + term.length)) {
    if (first < 0) first = at;
    count += 1;
  }
  return { count, first };
}

/** A line of three or more names separated by commas and nothing else: a CSV header, a format's fields. */
const FIELD_LIST = /^\s*[A-Za-z_][\w.-]*(?:\s*,\s*[A-Za-z_][\w.-]*){2,}\s*$/;

/** Calls every example makes: they say nothing about this library. */
const BUILTIN_CALL = /^(?:console|JSON|Math|Object|Array|Promise|process|module|exports|require|window|document|this|self|String|Number|Date|Buffer|assert|t|it|describe|test|expect|res|req|app|router|server|err|error|e|path|fs|os|util|url)\./;

/** Method calls in code blocks, "client.release()", with how often they are made there. */
function codeCalls(code: string): Map<string, { count: number; first: number }> {
  const calls = new Map<string, { count: number; first: number }>();
  for (const match of code.matchAll(/(?<![\w$.])([A-Za-z_$][\w$]*\.[A-Za-z_$][\w$]*)\s*\(/g)) {
    const name = `${match[1]!}()`;
    if (BUILTIN_CALL.test(name) || match[1]!.split('.')[1]!.length < 3) continue;
    const entry = calls.get(name);
    if (entry) entry.count += 1;
    else calls.set(name, { count: 1, first: match.index });
  }
  return calls;
}

/** The longest value kept with its option: a word or a placeholder, not a list of choices. */
const MAX_VALUE = 12;

/**
 * A long option the text only ever writes with one value ("--wait-for-gdb=yes"), with that value: it is what a reader
 * types. An option also written bare, or with several values, is listed by its name.
 */
export function withSoleValue(text: string, option: string): string {
  if (!option.startsWith('--')) return option;
  const values = new Set<string>();
  for (const match of text.matchAll(new RegExp(`(?<![\\w-])${escapeRegExp(option)}(?![\\w-])(?:=(\\S+))?`, 'g'))) values.add((match[1] ?? '').replace(/[.,;:)]+$/, ''));
  const [value] = values;
  return values.size === 1 && value && value.length <= MAX_VALUE && /^[\w<>|-]+(?:[.:][\w<>|-]+)*$/.test(value) ? `${option}=${value}` : option;
}

/**
 * Terms ranked by tier, then by weight × (1 + log2 count), plus 2 when the opening (`lead`) uses them:
 * identifiers (weight 3) first, then calls only the examples make (2), then plain words (1): a word
 * repeated fifty times ("memory") is mostly said by the summary already, a name is what a reader
 * cannot guess. The logarithm lets a term of the opening lines compete with one repeated a hundred times.
 */
export function rankKeywords(text: string, lead: string, codeTerms: readonly string[], exclude: ReadonlySet<string>, code = ''): Keyword[] {
  const found = new Map<string, Keyword>();
  const leadLower = lead.toLowerCase();
  const consider = (term: string, tier: number, weight: number, occurrences: { count: number; first: number }) => {
    const key = term.toLowerCase();
    if (exclude.has(key) || occurrences.count === 0) return;
    const score = weight * (1 + Math.log2(occurrences.count)) + (leadLower.includes(key) ? 2 : 0);
    const previous = found.get(key);
    if (!previous || previous.tier > tier || (previous.tier === tier && previous.score < score)) found.set(key, { text: term, tier, score, first: occurrences.first });
  };
  // Identifiers in code spans or in running text.
  const identifiers = new Set<string>();
  for (const term of codeTerms) if (term.length >= 3 && term.length <= 40 && !/\s/.test(term)) identifiers.add(term.replace(/\(.*\)$/, '()'));
  for (const match of text.matchAll(/(?<![\w$.-])(?:--[a-z][\w-]+|[A-Za-z_$][\w$]*(?:[._][\w$]+)+(?:\(\))?|[a-z][a-z0-9]*(?:_[a-z0-9]+)+|[a-z]+[A-Z][\w$]*|[a-z]+\d+[a-z\d]*)(?![\w$])/g)) identifiers.add(match[0]);
  // A hexadecimal string with digits ("dc9010dd", a commit or an id in an example) names nothing.
  for (const term of identifiers) if (/[*_.-]$|^[._]|^[_$]\.\w{1,2}$/.test(term) || !/[A-Za-z]{2}/.test(term) || /^(?=[a-f\d]*\d)[a-f\d]{7,}$/i.test(term)) identifiers.delete(term);
  for (const term of identifiers) if (IDENTIFIER.test(term) || /[A-Z]/.test(term)) consider(withSoleValue(text, term), 0, 3, countOccurrences(text, term));
  // A code line that only lists names ("ip_range_start, ip_range_end, autonomous_system_number"): a format's fields.
  for (const line of code.split('\n')) {
    if (!FIELD_LIST.test(line)) continue;
    for (const field of line.split(',').map((name) => name.trim())) if (IDENTIFIER.test(field)) consider(field, 0, 3, { count: Math.max(1, countOccurrences(text, field).count), first: text.length + code.indexOf(field) });
  }
  // Methods only the examples call ("pool.end()"): a value inside a code block, weighed below the text's own identifiers.
  for (const [call, occurrences] of codeCalls(code)) if (!found.has(call.toLowerCase()) && !found.has(call.slice(0, -2).toLowerCase())) consider(call, 1, 2, { count: occurrences.count, first: text.length + occurrences.first });
  // Frequent content words.
  const counts = new Map<string, { count: number; first: number }>();
  let offset = 0;
  for (const word of contentWords(text)) {
    if (word.length < 4 || GENERIC.has(word)) continue;
    const entry = counts.get(word);
    if (entry) entry.count += 1;
    else counts.set(word, { count: 1, first: offset++ });
  }
  for (const [word, occurrences] of counts) if (occurrences.count >= 3) consider(word, 2, 1, { count: occurrences.count, first: text.toLowerCase().indexOf(word) });
  return [...found.values()].sort((a, b) => a.tier - b.tier || b.score - a.score || a.first - b.first || (a.text < b.text ? -1 : 1));
}

/** Terms once each by name: "setBreakpoint()" after "setBreakpoint" (or before it) is the same keyword, and "--context" after "--context=N". */
export function oncePerName(terms: readonly string[]): string[] {
  const seen = new Set<string>();
  return terms.filter((term) => {
    const name = term.replace(/\(\)$/, '').replace(/^(--?[\w-]+)=.*$/, '$1').toLowerCase();
    if (seen.has(name)) return false;
    seen.add(name);
    return true;
  });
}
