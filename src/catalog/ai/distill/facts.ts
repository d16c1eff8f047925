// Facts a distillation must carry over verbatim: dates, numbers with their unit, currency or
// percent sign, versions, and named entities (multi-word capitalised names, acronyms, product
// and code names). Each is counted, so the most repeated and earliest ones can be kept first.
import { escapeRegExp } from './document.ts';

export interface FactCount {
  text: string;
  count: number;
  /** Index of the first character where it appears in the document's text. */
  first: number;
}

const MONTH = '(?:January|February|March|April|May|June|July|August|September|October|November|December|Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)';
const DATE_PATTERNS: readonly RegExp[] = [
  /\b(?:19|20)\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:[T ][0-2]\d:[0-5]\d(?::[0-5]\d)?(?:Z|[+-][0-2]\d:?[0-5]\d)?)?\b/g,
  new RegExp(`\\b(?:[0-3]?\\d(?:st|nd|rd|th)?\\s+${MONTH}\\.?,?\\s+(?:19|20)\\d{2})\\b`, 'g'),
  new RegExp(`\\b${MONTH}\\.?\\s+[0-3]?\\d(?:st|nd|rd|th)?,?\\s+(?:19|20)\\d{2}\\b`, 'g'),
  new RegExp(`\\b${MONTH}\\.?,?\\s+(?:19|20)\\d{2}\\b`, 'g'),
  /\b(?:Q[1-4]|H[12]|FY)\s?(?:19|20)\d{2}\b/g,
  /\b[0-3]?\d\/[01]?\d\/(?:19|20)\d{2}\b/g,
];

const NUMBER = String.raw`\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+)?`;
const SCALE = String.raw`(?:\s?(?:thousand|million|billion|trillion|[kKMB]n?|bn|mn)\b)?`;
const UNITS =
  'ms|µs|ns|s|sec|secs|seconds?|minutes?|mins?|hours?|hrs?|days?|weeks?|months?|years?|' +
  'B|[KMGTP]i?B|kB|bytes?|bits?|[KMG]bps|[kMG]?Hz|px|pt|em|dpi|' +
  'mm|cm|m|km|mi|ft|in|kg|g|mg|lb|lbs|t|°C|°F|K|W|kW|MW|GW|kWh|V|mAh|' +
  'x|times|tokens|requests|connections|users|people|employees|customers|files|lines|functions|curves|languages|countries|cores|threads';
const NUMBER_PATTERNS: readonly RegExp[] = [
  new RegExp(String.raw`(?:US\$|[$€£¥₹]|\b(?:USD|EUR|GBP|JPY|CHF|USDC|ETH|BTC)\s?)(?:${NUMBER})${SCALE}`, 'g'),
  new RegExp(String.raw`\b(?:${NUMBER})${SCALE}\s?(?:USD|EUR|GBP|USDC|ETH|BTC|dollars|euros|pounds|cents)\b`, 'g'),
  new RegExp(String.raw`(?<![\w.])(?:${NUMBER})\s?(?:%|percent\b|per cent\b)`, 'g'),
  new RegExp(String.raw`(?<![\w.])(?:${NUMBER})${SCALE}\s?(?:${UNITS})(?![\w/])`, 'g'),
  /\b[Vv]ersion\s+\d+(?:\.\d+)*\b/g,
  /(?<![\w.-])v?\d+\.\d+(?:\.\d+)+(?:-[0-9A-Za-z.]+)?(?![\w.])/g, // 1.2.3, v2.6.30, 1.0.0-beta.1
  /(?<![\w.-])v\d+(?:\.\d+)?(?![\w.])/g, // v5, v1.2
  new RegExp(String.raw`(?<![\w.,])\d{1,3}(?:,\d{3})+(?:\.\d+)?${SCALE}(?![\w,])`, 'g'), // 30,000
  new RegExp(String.raw`(?<![\w.,])\d+(?:\.\d+)?\s?(?:thousand|million|billion|trillion)\b`, 'g'),
];

/** Words that begin sentences with a capital without being names. */
const CAPITALISED_COMMON = new Set(
  ('A An The This That These Those There Their They Them Then Than It Its If In On At As Of Or And But For From To By With Without ' +
    'When Where While Which Who Whom Whose What Why How We You Your Our He She His Her I My Me Us All Any Each Every Some No Not Note ' +
    'Also See Use Using Used Returns Return Set Sets Get Gets Add Adds Added Fix Fixes Fixed Remove Removed Update Updated Make Makes Do Does ' +
    'Is Are Was Were Be Been Can Could Should Would Will May Might Must Shall Here Now Only Other Otherwise However Therefore Thus So Yes ' +
    'Example Examples For Default Defaults Optional Required True False Null None New Old First Second Third One Two Three After Before ' +
    'Since Until Unless Because Although Even Instead Both Either Neither Most Many More Less Such Same Just Like Please Let Before During ' +
    'Version Copyright License Section Chapter Table Figure Appendix Introduction Overview Summary Contents Usage Options Description ' +
    'Monday Tuesday Wednesday Thursday Friday Saturday Sunday January February March April June July August September October November December').split(' '),
);
const NAME_CONNECTORS = new Set(['of', 'the', 'for', 'de', 'da', 'del', 'van', 'von', 'der', 'la', 'le', 'du', '&']);
/** Units written in capitals: "5 MB" names no entity. */
const UNIT_WORDS = new Set('KB MB GB TB PB KIB MIB GIB TIB KBPS MBPS GBPS HZ KHZ MHZ GHZ MS NS UTF'.split(' '));
const SHOUTED_WORDS = new Set(('THE AND FOR NOT ANY ALL OR OF TO IN IS AS BY ON AT BE IF NO SO IT AN A WITH THIS THAT YOU YOUR ARE FROM BUT WILL SHALL ' +
  'MAY MUST SUCH OTHER WHICH ITS THAN THEN HAS HAVE HAD WAS WERE BEEN NOTE WARNING TODO FIXME').split(' '));

function countInto(counts: Map<string, FactCount>, text: string, at: number): void {
  const key = text;
  const found = counts.get(key);
  if (found) found.count += 1;
  else counts.set(key, { text, count: 1, first: at });
}

export function extractDates(text: string): { dates: FactCount[]; masked: string } {
  const counts = new Map<string, FactCount>();
  let masked = text;
  // Each match is blanked out, so a later pattern does not count it again ("June 2007" in "29 June 2007").
  for (const pattern of DATE_PATTERNS) {
    masked = masked.replace(pattern, (match: string, ...rest: unknown[]) => {
      countInto(counts, match.replace(/\s+/g, ' '), rest.find((value) => typeof value === 'number') as number);
      return ' '.repeat(match.length);
    });
  }
  return { dates: [...counts.values()], masked };
}

export function extractNumbers(maskedText: string): FactCount[] {
  const counts = new Map<string, FactCount>();
  let masked = maskedText;
  for (const pattern of NUMBER_PATTERNS) {
    masked = masked.replace(pattern, (match: string, ...rest: unknown[]) => {
      countInto(counts, match.trim().replace(/\s+/g, ' '), rest.find((value) => typeof value === 'number') as number);
      return ' '.repeat(match.length);
    });
  }
  return [...counts.values()];
}

/** Whether the word at `index` begins a sentence (or a line, a list item, a heading). */
function startsSentence(text: string, index: number): boolean {
  const before = text.slice(Math.max(0, index - 4), index);
  return index === 0 || /(?:[.!?:;]["'”’)]?\s+|\n\s*|^\s*|[-*•—–]\s+)$/.test(before);
}

/** Lower-case words standing alone (not inside paths or identifiers), with their counts. */
function plainLowerWords(text: string): Map<string, number> {
  const counts = new Map<string, number>();
  for (const match of text.matchAll(/(?<![\p{L}\p{N}_.:\/-])\p{Ll}+(?![\p{L}\p{N}_.:\/-])/gu)) counts.set(match[0], (counts.get(match[0]) ?? 0) + 1);
  return counts;
}

/** A capital standing alone with a full stop between two capitalised words of a name. */
const INITIAL = /(?<=\p{Lu}\p{Ll}+ )(\p{Lu})\.(?= \p{Lu}\p{Ll})/gu;
const INITIAL_MARK = '\u2024';

export function extractEntities(text: string): FactCount[] {
  const counts = new Map<string, FactCount>();
  const lowerWords = plainLowerWords(text);
  // Capitalised words, possibly joined by connectors: "Free Software Foundation", "Bank of England".
  // The look-behind keeps capitals inside identifiers out: deflateInit, Z_BUF_ERROR, msgPrefix.
  const NAME_RUN = /(?<![\p{L}\p{N}_$.\/-])[\p{Lu}][\p{L}\p{N}'’&+\u2024-]*(?:\.[\p{L}\p{N}]+)*(?:[ \t]+(?:(?:of|the|for|de|da|del|van|von|der|la|le|du|&)[ \t]+)*[\p{Lu}][\p{L}\p{N}'’&+\u2024-]*(?:\.[\p{L}\p{N}]+)*)*(?![\p{L}\p{N}_])/gu;
  // A middle initial ("Thomas E. Dickey") joins the name around it: its full stop is set aside while names are read.
  text = text.replace(INITIAL, `$1${INITIAL_MARK}`);
  for (const match of text.matchAll(NAME_RUN)) {
    let words = match[0].replace(/[.'’-]+$/, '').replace(/['’](?:s|d|ll|m|re|ve)$/, '').split(/[ \t]+/);
    let at = match.index;
    // Shouted text (licence disclaimers) is not a name.
    if (words.length >= 3 && words.every((word) => word === word.toUpperCase())) continue;
    while (words.length > 0 && (CAPITALISED_COMMON.has(words[0]!) || (words.length > 1 && startsSentence(text, at) && words[0]!.length <= 2))) {
      at += words[0]!.length + 1;
      words = words.slice(1);
    }
    while (words.length > 0 && NAME_CONNECTORS.has(words[0]!)) {
      at += words[0]!.length + 1;
      words = words.slice(1);
    }
    while (words.length > 0 && NAME_CONNECTORS.has(words.at(-1)!)) words = words.slice(0, -1);
    if (words.length === 0) continue;
    // A version written right after the name is part of it: "CC BY 4.0", "Python 3.11", not "CC BY".
    const version = match[0].endsWith(words.at(-1)!) ? /^[ \t]v?\d+(?:\.\d+)+(?![\p{L}\p{N}]|\.\d)/u.exec(text.slice(match.index + match[0].length))?.[0] : undefined;
    const name = words.join(' ') + (version ? ` ${version.trim()}` : '');
    if (words.length === 1 && !version) {
      const word = words[0]!;
      const acronym = /^[\p{Lu}\d]{2,}s?$/u.test(word) && /\p{Lu}.*\p{Lu}/u.test(word);
      const inner = /\p{Ll}\p{Lu}|\p{Lu}{2,}\p{Ll}|\d/u.test(word); // CamelCase, PyPy, URLSearchParams, ed25519
      if (acronym && (SHOUTED_WORDS.has(word.replace(/s$/, '')) || UNIT_WORDS.has(word.toUpperCase()))) continue;
      // Long all-capital words are emphasis ("OPTIONAL", "WARRANTY"), not acronyms; nor are capitalised
      // words the text also uses in lower case (a man page's FILE and NAME placeholders).
      if (acronym && word.length >= 6 && !/\d/.test(word)) continue;
      if (acronym && word.length >= 4 && (lowerWords.get(word.toLowerCase()) ?? 0) >= 3) continue;
      // A lone capitalised word counts where it is not just the first word of a sentence.
      if (!acronym && !inner && startsSentence(text, at)) continue;
      if (word.length < 2 || /^\d/.test(word) || word === 'I') continue;
    }
    countInto(counts, name.replaceAll(INITIAL_MARK, '.'), at);
  }
  // Identifiers the naming run misses: CVE-2022-24765, RFC 3986, ISO 8601, HTTP/1.1, ECMA-262.
  for (const match of text.matchAll(/\b(?:CVE-\d{4}-\d{4,}|(?:RFC|ISO|IEC|IEEE|ECMA|PEP|BIP|EIP|ERC)[- ]?\d{2,6}(?:-\d+)?|[A-Z]{2,6}\/\d(?:\.\d)?)\b/g)) {
    countInto(counts, match[0], match.index);
  }
  return [...counts.values()];
}

/** Drops entries contained, as whole words, in an entry ranked above them ("General Public License" under "GNU General Public License"). */
export function withoutContained(ranked: readonly string[]): string[] {
  const kept: string[] = [];
  for (const entry of ranked) {
    const pattern = new RegExp(`(?:^|[^\\p{L}\\p{N}])${escapeRegExp(entry)}(?:$|[^\\p{L}\\p{N}])`, 'u');
    if (!kept.some((longer) => longer.length > entry.length && longer.includes(entry) && pattern.test(longer))) kept.push(entry);
  }
  return kept;
}

/**
 * Orders facts by log-scaled repetition plus `boost` (title, headings, opening), then earliest;
 * equal ones by text, so the order is stable. The logarithm keeps a term repeated 2,000 times
 * from burying a name given once in the opening lines.
 */
export function byImportance(facts: readonly FactCount[], boost: (fact: FactCount) => number = () => 0): FactCount[] {
  const score = (fact: FactCount) => Math.log2(1 + fact.count) + boost(fact);
  return [...facts].sort((a, b) => score(b) - score(a) || a.first - b.first || (a.text < b.text ? -1 : a.text > b.text ? 1 : 0));
}
