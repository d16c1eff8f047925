// Distillation: read the document, find its structure (lead sentence, headings, a changelog's
// releases, a reference's definitions) and its facts, rank its sentences, then fill a token budget
// proportional to the document's length, structure first, measured with a real tokenizer.
import { ToolError } from '../../tool.ts';
import { withoutAppendices } from './appendices.ts';
import { NUMBERED_TITLE } from './numbered-title.ts';
import { outputBudget, type BudgetRequest } from './budget.ts';
import { definitionsOf } from './definitions.ts';
import { detectFormat } from './detect-format.ts';
import { plainText, squash, type Block, type DocumentFormat, type ReadDocument, type Release } from './document.ts';
import { documentKind, type DocumentKind } from './document-kind.ts';
import { fitBudget, type OutlineEntry } from './fit-budget.ts';
import { maskUrls } from './mask-urls.ts';
import { manualContent } from './manual-sections.ts';
import { ownInstall } from './own-install.ts';
import { authorsOf, isUniversalOption, keyFactsOf, keywordOf, type FactMix, type KeyFact } from './key-facts.ts';
import { oncePerName } from './keywords.ts';
import { clip, outlineOf } from './outline.ts';
import { licenceNotices, noticesText } from './licence-notices.ts';
import { openingOf as openingTextOf, openingShare, wholeOf, type ItemStyle } from './opening-text.ts';
import { learnedPoints, type UnitWeights } from './learned-points.ts';
import { rankFacts } from './rank-facts.ts';
import { BOILERPLATE, INFORMATIVE, LICENCE_TERMS, leadOf, type Candidate, rankSentences, sentenceCandidates } from './rank-sentences.ts';
import { isDebianChangelog, readDebianChangelog } from './read-debian-changelog.ts';
import { isDebianCopyright, readDebianCopyright } from './read-debian-copyright.ts';
import { readHtml } from './read-html.ts';
import { readMarkdown } from './read-markdown.ts';
import { readText } from './read-text.ts';
import { readTroff } from './read-troff.ts';
import { headerAsWritten, releasesOf } from './releases.ts';
import { scoringUnits, type ScoringUnit } from './scoring-units.ts';
import { contentWords } from './sentences.ts';
import { TOKENIZER, tokenCounter } from './token-count.ts';
import { UNIT_WEIGHTS } from './unit-weights.ts';

export interface DistilledContent {
  title: string;
  url?: string;
  format: DocumentFormat;
  /** changelog, manual, licence, reference or article: which structure was looked for. */
  kind: DocumentKind;
  summary: string;
  keyPoints: string[];
  /** Headings, "#" per level as in Markdown. */
  outline: string[];
  /** A changelog's newest releases, with their entries. */
  releases: Release[];
  /** Commands, options and definitions, limits and defaults, versions and dates, each with its sentence. */
  facts: KeyFact[];
  entities: string[];
  keywords: string[];
  numbers: string[];
  dates: string[];
}

export interface Distillation extends DistilledContent {
  tokens: {
    tokenizer: string;
    /** Tokens of `content` as sent. */
    input: number;
    /** Tokens of the document's readable text (markup removed). */
    text: number;
    /** The budget the answer was fitted to. */
    budget: number;
    /** Tokens of this answer's JSON without `tokens`. */
    output: number;
    /** output / input */
    ratio: number;
    saved: number;
    savedPercent: number;
  };
}

const MAX_TITLE_CHARACTERS = 150;
const SENTENCES_RANKED = 80;
/** Sentences read in order after the lead when the document has no introduction of its own. */
const OPENING_SENTENCES = 4;
/** How many of a changelog's releases its key points may quote. */
const NEWEST_RELEASES = 5;
/** How the facts of each kind are interleaved, by document kind. */
const FACT_MIX: Record<DocumentKind, FactMix> = {
  changelog: { command: 1, version: 1, date: 1, limit: 1 },
  manual: { option: 4, limit: 1, definition: 1, command: 1 },
  reference: { definition: 3, option: 2, limit: 1, command: 1, version: 1, date: 1 },
  licence: { limit: 1, version: 1, date: 1, definition: 1 },
  article: { command: 1, limit: 1, option: 1, definition: 1, version: 1, date: 1 },
};

/** Reads content in the format its markup shows. */
export function readDocument(content: string): ReadDocument {
  if (isDebianChangelog(content)) return readDebianChangelog(content);
  if (isDebianCopyright(content)) return readDebianCopyright(content);
  const format = detectFormat(content);
  if (format === 'html') return readHtml(content);
  if (format === 'markdown') return readMarkdown(content);
  if (format === 'troff') return readTroff(content);
  return readText(content);
}

function titleFromUrl(url: string | undefined): string | undefined {
  if (!url) return undefined;
  const { hostname, pathname } = new URL(url);
  const last = decodeURIComponent(pathname.split('/').filter(Boolean).at(-1) ?? '').replace(/\.[a-z0-9]+$/i, '').replace(/[-_]+/g, ' ').trim();
  return last || hostname;
}

/** The document's own title, else one from the URL, else its first sentence. */
function titleOf(document: ReadDocument, url: string | undefined, firstSentence: string | undefined): string {
  let own = squash(maskUrls(document.title ?? ''));
  // A licence or specification gives its version on the line under its title: "Version 2, June 1991", "CC0 1.0 Universal".
  const [first, second] = document.blocks;
  const versionLine = second && second.kind !== 'code' && second.kind !== 'item' && second.text.split(' ').length <= 6 && /\bversion\b|\b\d+\.\d+\b|\b(?:19|20)\d\d\b/i.test(second.text) && !/[[\]()<>]/.test(second.text);
  if (own && first && squash(first.text) === own && versionLine && !own.includes(second.text)) {
    own = `${own}, ${squash(maskUrls(second.text))}`;
  }
  return clip(own || titleFromUrl(url) || clip(firstSentence ?? 'Untitled', 100), MAX_TITLE_CHARACTERS);
}

/** Index of the first block after a changelog's `count` newest releases (the block heading the next one). */
function newestReleasesEnd(document: ReadDocument, releases: readonly Release[], count = NEWEST_RELEASES): number {
  const next = releases[count];
  if (!next) return document.blocks.length;
  const at = document.blocks.findIndex((block) => (block.kind === 'heading' || block.kind === 'paragraph') && block.text.includes(next.version) && block.text.split(' ').length <= 10);
  return at < 0 ? document.blocks.length : at;
}

/** The sentences that follow the lead, in order, up to the end of the introduction (or the first few). */
export function openingOf(candidates: readonly Candidate[], lead: Candidate | undefined): Candidate[] {
  const after = lead ? candidates.filter((candidate) => candidate.text !== lead.text) : candidates;
  const introduction = after.filter((candidate) => candidate.opening);
  // Without an introduction, the first paragraphs read on from the lead; list items (options, entries) are no reading on.
  return introduction.length >= 2 ? introduction : after.filter((candidate) => !candidate.item).slice(0, OPENING_SENTENCES);
}

/** The first sentence of each numbered clause (a "1." item, or the paragraph under a numbered heading), in order, then the rest. */
function clausesFirst(document: ReadDocument, candidates: readonly Candidate[], ranked: readonly Candidate[]): Candidate[] {
  const openings = new Set<string>();
  document.blocks.forEach((block, i) => {
    const previous = document.blocks[i - 1];
    const clause = (block.kind === 'item' && block.numbered) || (block.kind === 'paragraph' && previous?.kind === 'heading' && /^\d/.test(previous.text));
    if (clause) openings.add(squash(block.text).slice(0, 40));
  });
  const clauses = candidates.filter((candidate) => openings.has(candidate.text.slice(0, 40)));
  return [...clauses, ...ranked.filter((candidate) => !clauses.includes(candidate))];
}

/**
 * What a changelog covers: "42 releases, from 0.1.0 (2011-08-14) to 2.20.3 (2019-10-11)." The newest is named as the
 * changelog writes it when its reader says (a Debian upload: "to libxcb (1.15-1), Thu, 04 Aug 2022"), and so is the oldest
 * when its header is short (round 14: "from v1.0.0 - 2016-09-19"); a changelog with a preface says it after the preface.
 */
export function releasesSummary(releases: readonly Release[], newestAsWritten?: string, oldestAsWritten?: string): string {
  const newest = releases[0];
  const oldest = releases.at(-1);
  if (!newest || !oldest) return '';
  const named = (release: Release) => (release.date ? `${release.version} (${release.date})` : release.version);
  return `${releases.length} releases, from ${oldestAsWritten ?? named(oldest)} to ${newestAsWritten ?? named(newest)}.`;
}

/** The longest header a changelog's span names its oldest release by, as written ("v1.0.0 - 2016-09-19"). */
const MAX_SPAN_HEADER = 60;

/** The oldest release's header as the changelog writes it, when it is short enough for the span. */
function shortOldestHeader(blocks: readonly Block[], releases: readonly Release[]): string | undefined {
  const oldest = releases.at(-1);
  const header = oldest ? headerAsWritten(blocks, oldest.version) : undefined;
  return header && header.length <= MAX_SPAN_HEADER ? header : undefined;
}

/** For texts without a sentence long enough to rank: the first block that is not the title, clipped. */
function fallbackSummary(document: ReadDocument, title: string): string {
  const block = document.blocks.find((b) => b.kind !== 'heading' && b.kind !== 'code' && squash(b.text) !== title);
  return block ? clip(squash(block.text), 300) : '';
}

/** A man page's SYNOPSIS and DESCRIPTION paragraphs (not its option list): where it names its main options. */
function synopsisAndDescription(blocks: readonly Block[]): string {
  let inside = false;
  const text: string[] = [];
  for (const block of blocks) {
    if (block.kind === 'heading') inside = /^(?:synopsis|description)$/i.test(squash(block.text));
    else if (inside && block.kind !== 'item') text.push(block.text);
  }
  return text.join('\n');
}

/** The document's opening within `tokens`, after its lead sentence when the opening does not hold that. */
function leadAndOpening(document: ReadDocument, title: string, lead: Candidate | undefined, tokens: number, countTokens: (text: string) => number, skip: RegExp | undefined, style: ItemStyle): string | undefined {
  const opening = openingTextOf(document, title, tokens, countTokens, document.blocks.length, skip, style).text;
  const squashed = squash(opening).toLowerCase();
  // A lead of over 45 words is clipped with "…" (compact): the opening holds it when it holds its start.
  const start = squash(lead?.text ?? '').toLowerCase().replace(/…$/, '').replace(/[.!?]$/, '').slice(0, LEAD_START);
  if (!lead || squashed.includes(start)) return opening || undefined;
  const rest = openingTextOf(document, title, tokens - countTokens(JSON.stringify(lead.text)), countTokens, document.blocks.length, skip, style).text;
  return rest ? `${asLine(lead.text)}\n${rest}` : lead.text;
}
const LEAD_START = 120;
const withNotices = (notices: string, opening: string | undefined) => (notices ? [notices, opening].filter(Boolean).join('\n') : opening);
const asLine = (text: string) => (/[.!?:]$/.test(text) ? text : `${text}.`);

/**
 * Share of the budget left to the learned scorer's picks (learned-points.ts), after the structure and the rules have
 * filled the rest (round 15). Not for a changelog, whose budget goes to its newest releases. Chosen leave-one-set-out on
 * fresh sets 9 to 13, weights trained without the set measured (a prototype kept 307, 311 and 307 of 480 facts at 0.2,
 * 0.25 and 0.3; this code 312, the rules alone 290); on the unseen fresh sets 14 and 15 it keeps 108 of 192 facts, the
 * rules alone 107 (docs/distill-savings.md).
 */
const LEARNED_SHARE = 0.25;

/** `weights`: the unit scorer's, the shipped ones unless a measurement trains its own. */
export async function distill(content: string, url: string | undefined, request: BudgetRequest = {}, signal?: AbortSignal, weights: UnitWeights = UNIT_WEIGHTS): Promise<Distillation> {
  const countTokens = await tokenCounter();
  const document = readDocument(content);
  signal?.throwIfAborted();
  if (!document.blocks.some((block) => /[\p{L}\p{N}]/u.test(block.text))) {
    throw new ToolError(422, 'no_text_found', `no readable text was found in the ${document.format === 'html' ? 'HTML' : document.format} document`);
  }

  const releases = document.releases ?? releasesOf(document.blocks);
  const allDefinitions = definitionsOf(document.blocks);
  let title = titleOf(document, url, sentenceCandidates(document.blocks.slice(0, 40))[0]?.text);
  const kind = documentKind(document, title, releases, allDefinitions, document.format);
  // A manual's appended licence and index are not about its subject: facts and sentences come from the rest.
  const ownBlocks = kind === 'licence' ? document.blocks : withoutAppendices(document.blocks);
  const own: ReadDocument = ownBlocks.length === document.blocks.length ? document : { ...document, blocks: ownBlocks };
  const definitions = own === document ? allDefinitions : definitionsOf(own.blocks);
  // A changelog that opens with its newest release has no title of its own.
  if (kind === 'changelog' && releases[0] && title.includes(releases[0].version)) title = titleFromUrl(url) ?? 'Changelog';
  // A changelog's sentences worth quoting are its preface and newest entries, not those of years ago.
  // A manual's closing sections (reporting bugs, copyright, see also) are about the page, not the program; its known bugs are about the program.
  const sentenceBlocks = kind === 'changelog' ? document.blocks.slice(0, newestReleasesEnd(document, releases)) : kind === 'manual' ? manualContent(own.blocks) : own.blocks;
  // Definitions are served as facts; as sentences they would say the same twice.
  const defined = new Set(definitions.map((definition) => definition.term));
  const meanings = new Set(definitions.map((definition) => definition.meaning.slice(0, 60)));
  const candidates = sentenceCandidates(sentenceBlocks).filter(
    (candidate) => !NUMBERED_TITLE.test(candidate.text) && !meanings.has(candidate.text.slice(0, 60)) && !defined.has(/^(.{1,60}?)(?: — |: | - | – )/.exec(candidate.text)?.[1] ?? '') && (kind === 'licence' || !BOILERPLATE.test(candidate.text)),
  );
  // A man page's names and values come from what it says about the program, not from its copyright or bug-reporting lines (round 13).
  const facts = rankFacts(kind === 'manual' ? { ...own, blocks: manualContent(own.blocks) } : own, title);
  const prose = own.blocks.filter((block) => block.kind !== 'code').map((block) => block.text).join('\n');
  // A manual's options are ranked in the page's order, those its synopsis or description names first.
  const keyFacts =
    kind === 'manual'
      ? keyFactsOf(own.blocks, definitions, synopsisAndDescription(own.blocks), FACT_MIX[kind], BOILERPLATE, 'order')
      : keyFactsOf(own.blocks, kind === 'changelog' ? [] : definitions, prose, FACT_MIX[kind], kind === 'licence' ? undefined : BOILERPLATE);
  // A man page's header or footer says which version of the program it documents.
  if (document.edition) keyFacts.unshift({ fact: document.edition.split(', ')[0]!, kind: 'version', sentence: document.edition });
  // Who wrote it is one of the few names a reader asks for; it is named once, at the end.
  const authors = kind === 'changelog' || kind === 'licence' ? undefined : authorsOf(document.blocks);
  if (authors) keyFacts.splice(document.edition ? 2 : 1, 0, authors);
  signal?.throwIfAborted();

  // Sentences naming the title's words and the main facts rank higher.
  const factWords = new Set([...contentWords(title), ...facts.entities.slice(0, 20).flatMap((entity) => contentWords(entity)), ...facts.keywords.slice(0, 10).map((k) => k.toLowerCase())]);
  const titleLower = title.toLowerCase();
  const lead = leadOf(kind === 'changelog' ? document.blocks.slice(0, newestReleasesEnd(document, releases, 0)) : document.blocks, title);
  const ranked = rankSentences(
    // The authors' sentence is served once, as a fact.
    candidates.filter((candidate) => squash(candidate.text).toLowerCase() !== titleLower && candidate.text !== lead?.text && candidate.text !== authors?.sentence),
    factWords,
    SENTENCES_RANKED,
    kind === 'licence' ? LICENCE_TERMS : INFORMATIVE,
  );
  signal?.throwIfAborted();
  // A licence's terms are its numbered clauses: their opening sentences come first, in order.
  const sentences = kind === 'licence' ? clausesFirst(document, candidates, ranked) : ranked;

  const inputTokens = countTokens(content);
  const textTokens = countTokens(plainText(document));
  const budget = outputBudget(textTokens, request, inputTokens);
  // The structure and the rules fill `ruled`; the learned scorer the rest.
  const ruled = kind === 'changelog' ? budget : Math.round(budget * (1 - LEARNED_SHARE));

  const span = kind === 'changelog' ? releasesSummary(releases, document.newest, shortOldestHeader(document.blocks, releases)) : '';
  const base: DistilledContent = {
    title,
    ...(url ? { url } : {}),
    format: document.format,
    kind,
    // A changelog without a preface says what it covers; the budget counts it.
    summary: kind === 'changelog' && !lead ? span : '',
    keyPoints: [],
    outline: [],
    releases: [],
    facts: [],
    entities: [],
    keywords: [],
    numbers: [],
    dates: [],
  };
  // Keywords name the terms the document defines first (options, functions, settings), best first, then its other identifiers and words.
  // Options every program has (--help, --version) say nothing about this one.
  // Nor is "author" (who wrote it, a fact of its own) a term the document defines.
  const definedTerms = keyFacts.filter((fact) => (fact.kind === 'option' || fact.kind === 'definition') && fact !== authors && !isUniversalOption(fact.fact)).map((fact) => keywordOf(fact.fact));
  const keywords = oncePerName([...definedTerms, ...facts.keywords]).filter((keyword) => !isUniversalOption(keyword));
  // A changelog's releases already give their versions.
  const numbers = kind === 'changelog' ? facts.numbers.filter((number) => !releases.some((release) => release.version === number.replace(/^v/i, '') || release.version === number)) : facts.numbers;
  // ...and their dates: a release's date without its version says nothing.
  const dates = kind === 'changelog' ? facts.dates.filter((date) => !releases.some((release) => release.date === date)) : facts.dates;
  const skip = kind === 'licence' ? undefined : BOILERPLATE;
  const whole = kind === 'changelog' ? undefined : wholeOf(document, title, budget - countTokens(JSON.stringify(base)), countTokens, skip);
  if (whole) return withTokens({ ...base, summary: whole }, inputTokens, textTokens, budget, countTokens);
  const openingTokens = Math.round(ruled * openingShare(kind, textTokens));
  // A changelog's opening is its preface, up to its first release (what it covers, the conventions it follows); its releases come as releases.
  // A licence's notices (who holds what, under which licence) come first; the opening reads on without them.
  const notices = kind === 'licence' ? licenceNotices(document.blocks) : undefined;
  const noticeLines = notices ? noticesText(notices, ruled, countTokens) : '';
  const openingDocument = noticeLines && notices ? { ...document, blocks: document.blocks.filter((block) => !notices.blocks.has(block)) } : document;
  // A changelog's preface says what it follows; the span after it says how far back it goes (round 14).
  const preface = kind === 'changelog' && lead ? openingTextOf(document, title, openingTokens, countTokens, newestReleasesEnd(document, releases, 0)).text : '';
  const openingText = kind === 'changelog' ? (preface ? `${preface}\n${span}` : undefined) : withNotices(noticeLines, leadAndOpening(openingDocument, title, lead, openingTokens, countTokens, skip, kind === 'licence' ? 'verbatim' : 'compact'));
  const outline = outlineOf(document, title);
  const answer = fitBudget(
    base,
    kind,
    { ...(openingText ? { openingText } : lead ? { lead } : {}), sentences, opening: openingOf(candidates.filter((candidate) => squash(candidate.text).toLowerCase() !== titleLower), lead), outline: kind === 'changelog' ? outline.filter((entry) => !releases.some((release) => entry.text.includes(release.version))) : outline, releases: kind === 'changelog' ? releases : [], facts: keyFacts, skeletonFacts: skeletonFactsOf(kind, keyFacts, document.edition !== undefined, title), ...facts, keywords, numbers, dates },
    ruled,
    countTokens,
  );
  if (!answer.summary) answer.summary = fallbackSummary(document, title);
  if (ruled < budget) withLearnedPoints(answer, document.blocks, scoringUnits(document.blocks, title, document.codeTerms, kind), outline, weights, budget, countTokens);
  return withTokens(answer, inputTokens, textTokens, budget, countTokens);
}

/** Tokens kept back when the picks are priced one by one (joined in the JSON they cost a little less); what still overflows is taken back. */
const JOIN_ALLOWANCE = 6;

/**
 * The learned scorer's picks within what `budget` leaves of the answer: a heading joins the outline (in the document's
 * order, as the outline lists it; the title and the headings every page has are not listed), anything else follows the key
 * points. While the answer is over its budget, picks are taken back: key points last first, then headings.
 */
function withLearnedPoints(answer: DistilledContent, blocks: readonly Block[], units: readonly ScoringUnit[], outline: readonly OutlineEntry[], weights: UnitWeights, budget: number, countTokens: (text: string) => number): void {
  const size = () => countTokens(JSON.stringify(answer));
  const entries = new Map(outline.map((entry) => [entry.order, entry] as const));
  const [points, ruledOutline] = [answer.keyPoints.length, new Set(answer.outline)];
  for (const unit of learnedPoints(units, weights, JSON.stringify(answer), budget - size() - JOIN_ALLOWANCE, countTokens)) {
    const entry = entries.get(unit.block);
    if (blocks[unit.block]?.kind !== 'heading') answer.keyPoints.push(unit.text);
    else if (entry && !ruledOutline.has(entry.text)) answer.outline.push(entry.text);
  }
  const order = new Map(outline.map((entry) => [entry.text, entry.order] as const));
  answer.outline.sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0));
  while (answer.keyPoints.length > points && size() > budget) answer.keyPoints.pop();
  const learnedHeadings = answer.outline.filter((text) => !ruledOutline.has(text));
  while (learnedHeadings.length > 0 && size() > budget) answer.outline.splice(answer.outline.indexOf(learnedHeadings.pop()!), 1);
}

/** Facts served before anything competes: a man page's edition (the first fact when it has one); a README's own install command (round 13). */
function skeletonFactsOf(kind: DocumentKind, keyFacts: readonly KeyFact[], edition: boolean, title: string): KeyFact[] {
  const install = kind === 'article' ? ownInstall(keyFacts, title) : undefined;
  return [...(edition ? keyFacts.slice(0, 1) : []), ...(install ? [install] : [])];
}

/** The answer with its token counts. */
function withTokens(answer: DistilledContent, inputTokens: number, textTokens: number, budget: number, countTokens: (text: string) => number): Distillation {
  const output = countTokens(JSON.stringify(answer));
  const saved = inputTokens - output;
  return {
    ...answer,
    tokens: {
      tokenizer: `${TOKENIZER.encoding} (${TOKENIZER.library})`,
      input: inputTokens,
      text: textTokens,
      budget,
      output,
      ratio: Math.round((output / inputTokens) * 10_000) / 10_000,
      saved,
      savedPercent: Math.round((saved / inputTokens) * 1000) / 10,
    },
  };
}
