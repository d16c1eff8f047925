// Sentence splitting for English prose: at . ! ? followed by space and a capital, digit or quote,
// except after common abbreviations, single initials ("J. Smith") and inside numbers ("4.2").

const ABBREVIATIONS = new Set([
  'mr', 'mrs', 'ms', 'dr', 'prof', 'sr', 'jr', 'st', 'vs', 'etc', 'e.g', 'i.e', 'cf', 'al', 'approx', 'inc', 'ltd', 'co',
  'corp', 'no', 'nos', 'fig', 'figs', 'sec', 'ch', 'vol', 'ed', 'eds', 'p', 'pp', 'u.s', 'u.k', 'jan', 'feb', 'mar', 'apr',
  'jun', 'jul', 'aug', 'sep', 'sept', 'oct', 'nov', 'dec', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun', 'viz', 'resp',
  'ca', 'est', 'dept', 'univ', 'gen', 'gov', 'rev', 'op', 'ref', 'refs', 'eq', 'min', 'max',
]);

const BOUNDARY = /([.!?…]+)(["'”’)\]]*)\s+(?=["'“‘(\[]?[\p{Lu}\d])/gu;

export function splitSentences(text: string): string[] {
  const sentences: string[] = [];
  let start = 0;
  for (const match of text.matchAll(BOUNDARY)) {
    const end = match.index + match[1]!.length + match[2]!.length;
    const before = text.slice(start, match.index);
    const lastWord = /([\p{L}.]+)$/u.exec(before)?.[1]?.toLowerCase() ?? '';
    if (match[1] === '.') {
      if (ABBREVIATIONS.has(lastWord.replace(/\.$/, '')) || ABBREVIATIONS.has(lastWord)) continue;
      if (/^\p{L}$/u.test(lastWord)) continue; // an initial
    }
    const sentence = text.slice(start, end).trim();
    if (sentence) sentences.push(sentence);
    start = end;
  }
  const rest = text.slice(start).trim();
  if (rest) sentences.push(rest);
  return sentences;
}

const STOP_WORDS = new Set(
  ('a about above after again against all also am an and any are as at be because been before being below between both but by can could ' +
    'did do does doing down during each either else ever few for from further had has have having he her here hers herself him himself his ' +
    'how however i if in into is it its itself just least less let like may me might more most much must my myself neither no nor not now of ' +
    'off often on once one only or other others otherwise our ours ourselves out over own per rather same shall she should since so some such ' +
    'than that the their theirs them themselves then there these they this those though through thus to too under until up upon us use used ' +
    'uses using very via was we were what when where whether which while who whom whose why will with within without would yet you your ' +
    'yours yourself yourselves see e g eg ie etc new way get gets got make makes made well two three first second').split(' '),
);

export const isStopWord = (word: string): boolean => STOP_WORDS.has(word);

/** Lower-case content words of a text (letters, digits, inner . _ - kept: "safe.directory"). */
export function contentWords(text: string): string[] {
  const words = text.toLowerCase().match(/[\p{L}\p{N}]+(?:[._'-][\p{L}\p{N}]+)*/gu) ?? [];
  return words.filter((word) => word.length > 1 && !STOP_WORDS.has(word) && !/^\d+$/.test(word));
}
