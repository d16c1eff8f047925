// Extractive sentence ranking: centroid scoring over TF-ISF weights (Radev et al., "Centroid-based
// summarization of multiple documents", 2004) with bonuses for opening sentences, section openings
// sentences carrying facts and sentences stating what a reader must know (requirements, failures,
// defaults, what is never done). Picked by maximal marginal relevance (Carbonell & Goldstein, 1998)
// so that picks do not repeat each other; the lead is chosen apart (leadOf).
// Deterministic: ties go to the earlier sentence.
import type { Block } from './document.ts';
import { contentWords, isStopWord, splitSentences } from './sentences.ts';

export interface Candidate {
  text: string;
  /** Order in the document. */
  index: number;
  words: ReadonlySet<string>;
  firstInSection: boolean;
  /** Before the document's second heading: its introduction. */
  opening?: boolean;
  /** From a list item (an option, an entry), not a paragraph. */
  item?: boolean;
  /** Says again what its section's heading tells the reader to do ("Avoid contractions …" under "Avoid using contractions"): the section's rule. */
  restatesHeading?: boolean;
  score: number;
}

const CENTROID_TERMS = 60;
const MMR_LAMBDA = 0.75;
/** Sentences that say what is required, what fails, what is deleted or never done, what the default is. */
export const INFORMATIVE = /\b(?:requires?|required|must|fails?|failed|errors?|delete[sd]?|remove[sd]?|overwrit(?:es?|ten)|never|always|not supported|does not|doesn't|do not|don't|cannot|can't|is not|isn't|only|default|defaults to|deprecated|warning|important|note that|instead|limit|maximum|exit status)\b/i;
/** A licence's terms: what you may and must do, and what is disclaimed. */
export const LICENCE_TERMS = /\b(?:you may|may not|must|provided that|permission|permitted|conditions?|warranty|liab(?:le|ility)|royalty|patent|source code|verbatim|modif(?:y|ied|ications?)|distribut(?:e|ion))\b/i;

function isProse(sentence: string, kind: Block['kind']): boolean {
  const words = sentence.split(/\s+/);
  if (words.length < (kind === 'item' ? 4 : 6) || words.length > MAX_SENTENCE_WORDS) return false;
  // Sentences are held together by function words; synopsis lines and option lists are not.
  const functionWords = words.filter((word) => isStopWord(word.toLowerCase().replace(/[^\p{L}]/gu, ''))).length;
  if (functionWords < (words.length <= 12 ? 1 : 2)) return false;
  const visible = sentence.replace(/\s/g, '');
  const letters = (visible.match(/\p{L}/gu) ?? []).length;
  const symbols = (visible.match(/[{}[\]=<>;|$*\\`#]/g) ?? []).length;
  return letters / visible.length >= 0.6 && symbols <= Math.max(3, words.length / 4);
}

const MAX_SENTENCE_WORDS = 45;
/** A very long sentence is cut after its first words: what it says first is what it is about. */
const clipWords = (sentence: string) => {
  const words = sentence.split(/\s+/);
  return words.length <= MAX_SENTENCE_WORDS ? sentence : `${words.slice(0, MAX_SENTENCE_WORDS - 5).join(' ')}…`;
};

/** Removes what costs tokens without carrying meaning in a summary: bare URLs, markdown residue. */
export function compact(sentence: string): string {
  return clipWords(sentence)
    .replace(/^[\p{Extended_Pictographic}\uFE0F\u200D\s]+/u, '')
    .replace(/\s*\(?<?https?:\/\/[^\s)>]+>?\)?/g, '')
    .replace(/\s+(?:in|at|see)\s*$/i, '')
    .replace(/\s+([,.;:!?])(?=\s|$)/g, '$1')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Headings of a section on contributing: "Contributing", "Contribution and License Agreement", "How to contribute". */
const CONTRIBUTING = /^(?:contributing|contributions?\b|how to contribute|contributor(?:s|'s)? (?:guide|agreement))/i;

/**
 * A sentence saying again what its heading tells the reader to do: the heading opens with a verb of advice
 * ("Avoid using contractions", "Prefer …", "Use …") and the sentence opens with the same verb and shares another of
 * the heading's words. A guide's section explains first and states its rule after.
 */
const ADVICE = /^(?:avoid|use|prefer|do|don't|never|always|keep|make|give|consider|write|start|put|add|include|check|set|run)\b/i;
function restates(sentence: string, heading: string): boolean {
  const verb = ADVICE.exec(heading)?.[0]?.toLowerCase();
  if (!verb || !sentence.toLowerCase().startsWith(`${verb} `)) return false;
  const words = new Set(contentWords(heading).filter((word) => word !== verb));
  return contentWords(sentence).some((word) => word !== verb && words.has(word));
}

export function sentenceCandidates(blocks: readonly Block[]): Candidate[] {
  const candidates: Candidate[] = [];
  let heading = '';
  let sectionStarted = false;
  let headings = 0;
  let contributing: number | undefined;
  for (const [at, block] of blocks.entries()) {
    if (block.kind === 'heading') {
      sectionStarted = false;
      heading = block.text;
      headings += 1;
      // A section on how to contribute, after the first heading, is about the project's workflow, not what it does.
      if (contributing !== undefined && block.level <= contributing) contributing = undefined;
      if (headings > 1 && CONTRIBUTING.test(block.text)) contributing = block.level;
      continue;
    }
    if (contributing !== undefined) continue;
    if (block.kind !== 'paragraph' && block.kind !== 'item') continue;
    // A typed parameter ("callback <Function> Invoked once…") is reference, not prose.
    if (block.kind === 'item' && /^[\w.$]+ <[\w|[\].<> ]+>/.test(block.text)) continue;
    const said = splitSentences(block.text);
    const shown = introducedLine(blocks[at + 1]);
    for (const [i, raw] of said.entries()) {
      const text = i === said.length - 1 && shown ? withShownLine(compact(raw), shown) : compact(raw);
      if (!isProse(text, block.kind)) continue;
      const words = new Set(contentWords(text));
      if (words.size < 2) continue;
      const rule = sectionStarted && restates(text, heading);
      candidates.push({ text, index: candidates.length, words, firstInSection: !sectionStarted, opening: headings <= 1, ...(block.kind === 'item' ? { item: true } : {}), ...(rule ? { restatesHeading: true } : {}), score: 0 });
      sectionStarted = true;
    }
  }
  return candidates;
}

/** The longest line of code a sentence introducing it may carry. */
const MAX_SHOWN_LINE = 80;

/**
 * The line a code block opens with, when it is one short statement of code (not a comment, not an open bracket): a
 * call, a signature or a require, which holds a parenthesis. A shell line is a command fact already (key-facts.ts).
 */
function introducedLine(block: Block | undefined): string | undefined {
  if (block?.kind !== 'code') return undefined;
  const line = block.text.split('\n').map((text) => text.trim()).find((text) => text && !/^(?:\/\/|#|\/\*|\*)/.test(text));
  return line && line.length <= MAX_SHOWN_LINE && line.includes('(') && !/[{([,]$/.test(line) ? line.replace(/;$/, '') : undefined;
}

/**
 * A sentence that introduces the code after it ("…must expose a single function with the following signature", "just use
 * the decorate API:") says what it shows only with it (round 14): it carries the code's first line when that is one short
 * statement ("…the following signature: module.exports = function (fastify, options, done) {}"). A sentence ending in
 * a full stop introduces nothing.
 */
function withShownLine(text: string, line: string): string {
  if (/[.!?…]["')]?$/.test(text)) return text;
  return `${text.replace(/:$/, '')}: ${line}`;
}

/** Values a reader cannot guess: numbers, options, names written as code ("--leak-check", "pool.end()", "max_age", "setHeaders"). */
const CONCRETE = /(?<![\w-])(?:\d+(?:[.,]\d+)*%?|--?[a-z][\w-]*(?:=\S+)?|[\w$]+(?:\.[\w$]+)+(?:\(\))?|[\w$]+\(\)|[a-z]+_[\w]+|[a-z]+[A-Z][\w$]*)(?![\w])/g;
const CONCRETE_BONUS = 0.05;
const LENGTH_PENALTY = 0.03;
const PENALTY_FREE_WORDS = 15;
const CONCRETE_CAP = 0.15;
const concreteValues = (text: string) => new Set(text.match(CONCRETE) ?? []).size;

function setSimilarity(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let shared = 0;
  for (const word of a) if (b.has(word)) shared += 1;
  return shared / Math.sqrt(a.size * b.size);
}

/**
 * Scores candidates and returns them best first, each pick penalised by its likeness to those
 * already picked. `factWords` are words of the document's key facts and title.
 */
export function rankSentences(candidates: readonly Candidate[], factWords: ReadonlySet<string>, limit: number, cue: RegExp = INFORMATIVE): Candidate[] {
  if (candidates.length === 0) return [];
  const sentenceFrequency = new Map<string, number>();
  const termFrequency = new Map<string, number>();
  for (const candidate of candidates) {
    for (const word of candidate.words) {
      sentenceFrequency.set(word, (sentenceFrequency.get(word) ?? 0) + 1);
      termFrequency.set(word, (termFrequency.get(word) ?? 0) + 1);
    }
  }
  const n = candidates.length;
  const weights = [...termFrequency]
    // Sublinear term frequency, so boilerplate repeated in every entry does not become the centroid.
    .map(([word, tf]) => [word, (1 + Math.log(tf)) * Math.log((n + 1) / sentenceFrequency.get(word)!)] as const)
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, CENTROID_TERMS);
  const centroid = new Map(weights);

  const raw = candidates.map((candidate) => {
    let sum = 0;
    for (const word of candidate.words) sum += centroid.get(word) ?? 0;
    return sum / Math.sqrt(candidate.words.size + 1);
  });
  const top = Math.max(...raw) || 1;
  const scored = candidates.map((candidate, i) => {
    let factHits = 0;
    for (const word of candidate.words) if (factWords.has(word)) factHits += 1;
    const score =
      raw[i]! / top +
      // The sentences right after the lead often finish saying what the document is.
      (candidate.index > 0 && candidate.index < 3 ? 0.2 : 0) +
      (candidate.firstInSection || candidate.restatesHeading ? 0.15 : 0) +
      (candidate.index < n * 0.1 ? 0.1 : 0) +
      (candidate.opening ? 0.2 : 0) +
      Math.min(0.2, factHits * 0.05) +
      (cue.test(candidate.text) ? 0.25 : 0) +
      Math.min(CONCRETE_CAP, concreteValues(candidate.text) * CONCRETE_BONUS) -
      // A line introducing what follows ("Most messages look like the following:") says nothing without it.
      (/:$/.test(candidate.text) ? 0.3 : 0) -
      // A sentence of 40+ words costs what two do: it must say twice as much.
      (candidate.text.split(' ').length > 40 ? 0.15 : 0) -
      // Density (round 6): each word past 15 costs budget another fact could use; a long sentence must earn its length.
      LENGTH_PENALTY * Math.max(0, candidate.text.split(' ').length - PENALTY_FREE_WORDS);
    return { ...candidate, score };
  });

  const picked: Candidate[] = [];
  const remaining = [...scored];
  // Likeness of each remaining candidate to its closest pick, updated with each new pick only.
  const redundancy = new Array<number>(remaining.length).fill(0);
  while (picked.length < limit && remaining.length > 0) {
    let best = 0;
    let bestValue = -Infinity;
    remaining.forEach((candidate, i) => {
      const value = MMR_LAMBDA * candidate.score - (1 - MMR_LAMBDA) * redundancy[i]!;
      if (value > bestValue) [best, bestValue] = [i, value];
    });
    const chosen = remaining.splice(best, 1)[0]!;
    redundancy.splice(best, 1);
    picked.push(chosen);
    remaining.forEach((candidate, i) => {
      redundancy[i] = Math.max(redundancy[i]!, setSimilarity(candidate.words, chosen.words));
    });
  }
  return picked;
}

/**
 * The lead: the first sentence of the first paragraph that is prose, not a badge line or a path
 * ("Source Code: lib/path.js"): one ending like a sentence, or long enough to be one. Short leads
 * count ("Node.js body parsing middleware."): they say what the thing is.
 */
/** A copyright line or a licence notice: what a document says about its own terms, not what it is about. */
export const BOILERPLATE = /^(?:copyright\b|©|\(c\)\s)|\bredistribute it and\/or modify\b|\bWITHOUT ANY WARRANTY\b|\bYou should have received a copy of\b|\bis distributed in the hope that\b|\bunder the terms of (?:the |version \d+ of the )?(?:GNU|Apache|MIT|BSD|Mozilla)\b|\bGNU (?:Lesser |Library )?General Public License\b|\bFree Software Foundation\b|^Mandatory arguments to long options are mandatory for short options too\b/i;

/**
 * A one-line description under the title, even without a full stop: "A connection pool for node-postgres",
 * "Fast, in memory work queue". Before any section, four words or more held together by a function word,
 * not the start of a list ("Features:").
 */
function describes(text: string, headings: number): boolean {
  const words = text.split(/\s+/);
  return headings <= 1 && splitSentences(text).length === 1 && words.length >= 4 && words.length <= 30 && !/:$/.test(text) && words.some((word) => isStopWord(word.toLowerCase().replace(/[^\p{L}]/gu, '')));
}

export function leadOf(blocks: readonly Block[], title: string): Candidate | undefined {
  const titleLower = title.toLowerCase();
  let headings = 0;
  let previous: Block | undefined;
  let synopsis = false;
  for (const block of blocks.slice(0, 60)) {
    // A man page's NAME line says what the program is, even as a fragment: "xsltproc — command line XSLT processor".
    const named = previous?.kind === 'heading' && /^name$/i.test(previous.text);
    if (block.kind === 'heading') synopsis = /^synopsis$/i.test(block.text);
    previous = block;
    // A lead opens the document: past its second section, what comes is no longer an introduction.
    if (block.kind === 'heading' && ++headings > 3) return undefined;
    if (block.kind !== 'paragraph' || BOILERPLATE.test(block.text) || synopsis) continue;
    const first = compact(splitSentences(block.text)[0] ?? '');
    const words = first.split(/\s+/).length;
    if (first.toLowerCase().replace(/[.!?]$/, '') === titleLower || !/\p{L}{2}/u.test(first)) continue;
    if (!named && !((/[.!?]$/.test(first) && words >= 3) || (words >= 8 && !/:$/.test(first)) || describes(block.text, headings))) continue;
    if (words > 80) return undefined;
    // A warranty disclaimer in capitals opens many licence texts: it says nothing of what the document is.
    if ((first.match(/\p{Lu}/gu)?.length ?? 0) > (first.match(/\p{L}/gu)?.length ?? 0) * 0.6) continue;
    return { text: first, index: -1, words: new Set(contentWords(first)), firstInSection: true, score: Infinity };
  }
  return undefined;
}
