// Fills the answer within a token budget, structure first: the skeleton (the opening or the lead read on,
// a changelog's newest releases, a man page's edition, a few top headings), then every other piece
// (key-point sentences, facts, keywords, entities, numbers, dates, headings) competes by budgeted maximum
// coverage of information units per token (cover.ts, information-units.ts; round 8), and the exact count
// of the JSON has the last word.
import type { DistilledContent } from './distill-document.ts';
import type { Release } from './document.ts';
import type { DocumentKind } from './document-kind.ts';
import { keywordOf, type KeyFact } from './key-facts.ts';
import { byWhenChanged } from './releases.ts';
import { INFORMATIVE, type Candidate } from './rank-sentences.ts';
import { greedyCover, type CoverCandidate } from './cover.ts';
import { unitsOf } from './information-units.ts';

export interface OutlineEntry {
  text: string;
  /** Heading level: lower levels are kept first. */
  rank: number;
  /** Position in the document. */
  order: number;
}

export interface Ranked {
  /** The document's opening, verbatim (see opening-text.ts): when given, it is the summary, and nothing it holds is served again. */
  openingText?: string;
  /** The document's first sentence: what it is. Always kept. */
  lead?: Candidate;
  /** Best first. */
  sentences: readonly Candidate[];
  /** The sentences that open the document, in order, after the lead: read first, as a reader would. */
  opening: readonly Candidate[];
  /** Best first. */
  outline: readonly OutlineEntry[];
  /** Newest first. */
  releases: readonly Release[];
  /** Best first. */
  facts: readonly KeyFact[];
  /** Facts that belong to the skeleton (a man page's edition, who wrote it): served before anything competes. */
  skeletonFacts?: readonly KeyFact[];
  entities: readonly string[];
  keywords: readonly string[];
  numbers: readonly string[];
  dates: readonly string[];
}

type Part = 'summary' | 'releases' | 'facts' | 'outline' | 'keyPoints' | 'entities' | 'keywords' | 'numbers' | 'dates';

/**
 * Per kind, the skeleton's share of the budget, served before anything competes: a changelog's newest releases,
 * or the summary reading on from the lead when there is no opening text. Round 8: the other parts no longer get
 * fixed shares (round 7's plans); they compete by coverage (cover.ts).
 */
const RELEASES_SHARE = 0.95;
const OUTLINE_SHARE = 0.02;
const SKELETON: Record<DocumentKind, readonly (readonly [Part, number])[]> = {
  changelog: [['releases', 0.86]],
  manual: [['summary', 0.2]],
  reference: [['summary', 0.2], ['outline', OUTLINE_SHARE]],
  licence: [['summary', 0.22]],
  article: [['summary', 0.24], ['outline', OUTLINE_SHARE]],
};
/**
 * A piece's gain is multiplied by 1 + RANK_BONUS / (1 + RANK_DECAY × its rank in its own list): the lists' own
 * rankings (a man page's options in page order, centroid scores, definitions by mentions) know more than units do.
 * Measured on all sets in round 8: without it the coverage fill kept 985 facts against 1007 before it; 1030 with 3 and 0.2,
 * 1037 with 8 and 0.1 (the region is flat within a few facts).
 */
const RANK_BONUS = 8;
const RANK_DECAY = 0.1;
/**
 * A number listed alone ("version 2", "30 days") says least of all pieces without its sentence: its gain counts at this
 * share (all sets: 1038 facts with 1, 1041 with 0.3, 1042 with no numbers at all).
 */
const NUMBERS_WEIGHT = 0.3;
/**
 * A section's first sentence that states a rule (requires, never, only, by default…) is what a guide's section is
 * there to say: its gain counts this much more (all sets: 1041 facts with 1, 1043 with 1.25, 1044 with 1.5, 1038 with 2).
 */
const SECTION_RULE_WEIGHT = 1.5;
/** Lists of names and values, whose items a sentence or fact picked later may quote whole. */
const SHORT_LISTS: readonly string[] = ['keywords', 'entities', 'numbers', 'dates'];
/** Coverage passes: after each, names quoted whole by a later pick are taken out and their tokens spent again. */
const COVER_PASSES = 3;
/** Items are priced one by one; joined in JSON they cost a little more. */
const JOIN_MARGIN = 0.96;
const MAX_SUMMARY_SENTENCES = 6;

/** A name without its empty argument list: "ffi_prep_closure_loc()" and "ffi_prep_closure_loc" are one keyword. */
/** A term's name: a function without its "()", an option without the argument written with it. */
const bareName = (term: string) => term.replace(/\(\)$/, '').replace(/^(--?[\w-]+)=.*$/, '$1');

/** List items often lack a full stop; one is added so the summary reads as sentences. */
const asSentence = (text: string) => (/[.!?:…"'”)]$/.test(text) ? text : `${text}.`);

/** A release costs its version and date first; its changes are served one by one. */
interface ReleaseSlot {
  release: Release;
  changes: number;
}

/** Share of the budget the newest release's changes may take before older releases are listed. */
const NEWEST_RELEASE_SHARE = 0.5;

/** Refills tried when the first fill leaves part of the budget unused. */
const REFILLS = 4;
/** A fill using this share of the budget is full enough. */
const FULL_ENOUGH = 0.97;

/**
 * Items are priced one by one, and alone they cost more than joined in the answer's JSON, so a
 * fill to the budget leaves some of it unused: the fill is run again to a larger target, scaled by
 * what the last one used, as long as the answer still fits (bisecting once one does not).
 */
export function fitBudget(base: DistilledContent, kind: DocumentKind, all: Ranked, budget: number, countTokens: (text: string) => number): DistilledContent {
  const ranked = beyondOpening(all);
  const size = (answer: DistilledContent) => countTokens(JSON.stringify(answer));
  let best = fill(base, kind, ranked, budget, countTokens);
  let [fits, over] = [budget, Infinity];
  for (let i = 0, used = size(best); i < REFILLS && used <= budget && used < budget * FULL_ENOUGH; i += 1) {
    const target = over === Infinity ? Math.round((fits * budget) / Math.max(1, used)) : Math.round((fits + over) / 2);
    if (target <= fits) break;
    const next = fill(base, kind, ranked, target, countTokens);
    const nextUsed = size(next);
    if (nextUsed <= budget) [best, fits, used] = [next, target, nextUsed];
    else over = target;
  }
  return trim(best, budget, countTokens);
}

function fill(base: DistilledContent, kind: DocumentKind, ranked: Ranked, budget: number, countTokens: (text: string) => number): DistilledContent {
  const cost = (item: unknown) => countTokens(JSON.stringify(item)) + 1;
  let left = Math.max(0, Math.floor(budget * JOIN_MARGIN) - countTokens(JSON.stringify(base)));
  const spentOn = new Map<Part, number>();
  const spend = (part: Part, price: number) => {
    left -= price;
    spentOn.set(part, (spentOn.get(part) ?? 0) + price);
  };

  const summary: Candidate[] = [];
  if (ranked.openingText) spend('summary', cost(ranked.openingText));
  if (ranked.lead) {
    summary.push(ranked.lead);
    spend('summary', cost(ranked.lead.text));
  }
  const sentences = ranked.sentences.filter((candidate) => candidate !== ranked.lead && candidate.text !== ranked.lead?.text);
  const openingSentences = ranked.opening.filter((candidate) => candidate.text !== ranked.lead?.text);
  /** Sentences already in the summary or the key points. */
  const quoted = new Set<string>(ranked.lead ? [ranked.lead.text] : []);
  const keyPoints: Candidate[] = [];
  const slots: ReleaseSlot[] = [];
  const lists = {
    sentences: { items: sentences.map((candidate) => candidate.text), used: new Set<number>() },
    facts: { items: ranked.facts, used: new Set<number>() },
    outline: { items: ranked.outline.map((entry) => entry.text), used: new Set<number>() },
    entities: { items: ranked.entities, used: new Set<number>() },
    keywords: { items: ranked.keywords, used: new Set<number>() },
    numbers: { items: ranked.numbers, used: new Set<number>() },
    dates: { items: ranked.dates, used: new Set<number>() },
  };
  type ListName = keyof typeof lists;
  const prices = new Map<unknown, number>();
  const shownFacts = new Set<string>();
  const priceOf = (item: unknown) => prices.get(item) ?? (prices.set(item, cost(item)), prices.get(item)!);

  /** Next release item: a release not yet listed (with its first change), else one more change of a listed one. */
  let newestSpent = 0;
  const pickRelease = (limit: number): { price: number; apply: () => void } | undefined => {
    // The newest releases first. The newest shows its changes in full up to NEWEST_RELEASE_SHARE of the budget (what a
    // reader of the changelog's top reads); each older one up to (6 - its rank) changes, at least two, before older ones get more.
    for (const [i, slot] of slots.entries()) {
      const change = slot.release.changes[slot.changes];
      if (change === undefined || priceOf(change) > limit) continue;
      const room = i === 0 ? newestSpent + priceOf(change) <= budget * NEWEST_RELEASE_SHARE : slot.changes < Math.max(2, 6 - i);
      if (room) return { price: priceOf(change), apply: () => ((slot.changes += 1), i === 0 && (newestSpent += priceOf(change))) };
    }
    const release = ranked.releases[slots.length];
    if (release) {
      const shown = { ...release, changes: release.changes.slice(0, 1) };
      if (cost(shown) <= limit) return { price: cost(shown), apply: () => slots.push({ release, changes: shown.changes.length }) };
      return undefined;
    }
    for (const slot of slots) {
      const change = slot.release.changes[slot.changes];
      if (change !== undefined && priceOf(change) <= limit) return { price: priceOf(change), apply: () => (slot.changes += 1) };
    }
    return undefined;
  };
  /** The summary reads on from the lead, in the document's order, while sentences fit. */
  const nextOpening = (limit: number): { price: number; apply: () => void } | undefined => {
    if (summary.length >= MAX_SUMMARY_SENTENCES || ranked.openingText) return undefined;
    const candidate = openingSentences.find((c) => !quoted.has(c.text));
    if (!candidate || priceOf(candidate.text) > limit) return undefined;
    return { price: priceOf(candidate.text), apply: () => (summary.push(candidate), quoted.add(candidate.text)) };
  };
  /** The best heading not yet listed, while it fits: the document's outline is part of its skeleton. */
  const nextHeading = (limit: number): { price: number; apply: () => void } | undefined => {
    const index = ranked.outline.findIndex((_, i) => !lists.outline.used.has(i));
    if (index < 0 || priceOf(lists.outline.items[index]) > limit) return undefined;
    return { price: priceOf(lists.outline.items[index]), apply: () => lists.outline.used.add(index) };
  };
  const next = (part: Part, limit: number) => (part === 'releases' ? pickRelease(limit) : part === 'outline' ? nextHeading(limit) : nextOpening(limit));

  const available = left;
  for (const [part, share] of SKELETON[kind]) {
    for (let item = next(part, Math.min(left, available * share - (spentOn.get(part) ?? 0))); item; item = next(part, Math.min(left, available * share - (spentOn.get(part) ?? 0)))) {
      item.apply();
      spend(part, item.price);
    }
  }
  // A changelog's releases are its content: they take up to RELEASES_SHARE of the budget, one entry at a time, before anything competes.
  for (let item = pickRelease(Math.min(left, available * RELEASES_SHARE - (spentOn.get('releases') ?? 0))); item; item = pickRelease(Math.min(left, available * RELEASES_SHARE - (spentOn.get('releases') ?? 0)))) {
    item.apply();
    spend('releases', item.price);
  }
  for (const fact of ranked.skeletonFacts ?? []) {
    const index = ranked.facts.indexOf(fact);
    const price = priceOf(fact);
    if (index < 0 || price > left || lists.facts.used.has(index)) continue;
    lists.facts.used.add(index);
    shownFacts.add(bareName(keywordOf(ranked.facts[index]!.fact)));
    spend('facts', price);
  }
  // Every other piece competes on the weight of information units it adds that the answer does not hold yet, per token.
  const covered = new Set<string>([...unitsOf(base.title).keys(), ...unitsOf(base.summary).keys(), ...unitsOf(ranked.openingText ?? '').keys()]);
  for (const candidate of summary) for (const unit of unitsOf(candidate.text).keys()) covered.add(unit);
  for (const index of lists.outline.used) for (const unit of unitsOf(lists.outline.items[index]!).keys()) covered.add(unit);
  for (const index of lists.facts.used) for (const unit of unitsOf(`${ranked.facts[index]!.fact} ${ranked.facts[index]!.sentence}`).keys()) covered.add(unit);
  for (const slot of slots) for (const unit of unitsOf(JSON.stringify({ ...slot.release, changes: slot.release.changes.slice(0, slot.changes) })).keys()) covered.add(unit);
  const chosen = <T>(name: ListName, items: readonly T[]) => items.filter((_, index) => lists[name].used.has(index));
  const chosenFacts = () => chosen('facts', ranked.facts);
  const pieces: CoverCandidate<readonly [ListName, number]>[] = [];
  for (const name of Object.keys(lists) as ListName[]) {
    if (name === 'sentences' && kind === 'changelog') continue;
    lists[name].items.forEach((item, index) => {
      if (lists[name].used.has(index)) return;
      const text = typeof item === 'string' ? item : `${(item as KeyFact).fact} ${(item as KeyFact).sentence}`;
      const units = unitsOf(text);
      pieces.push({ item: [name, index], price: priceOf(item), units, prior: weightOf(name, sentences[index]) * (1 + RANK_BONUS / (1 + index * RANK_DECAY)) });
    });
  }
  const pruned = new Set<CoverCandidate<readonly [ListName, number]>>();
  for (let pass = 0; pass < COVER_PASSES; pass += 1) {
    const open = pieces.filter((piece) => !lists[piece.item[0]].used.has(piece.item[1]) && !pruned.has(piece));
    const { spent } = greedyCover(open, covered, left, ([name, index]) => {
      lists[name].used.add(index);
      if (name === 'facts') shownFacts.add(bareName(keywordOf(ranked.facts[index]!.fact)));
      if (name === 'sentences') {
        keyPoints.push(sentences[index]!);
        quoted.add(sentences[index]!.text);
      }
      return true;
    });
    left -= spent;
    // A name picked early may be quoted whole by a sentence or fact picked after it: listed again, it says nothing new.
    const said = [...keyPoints.map((candidate) => candidate.text), ...chosenFacts().map((fact) => `${fact.fact} ${fact.sentence}`)].join('\n').toLowerCase();
    let freed = 0;
    for (const piece of pieces) {
      const [name, index] = piece.item;
      if (!SHORT_LISTS.includes(name) || !lists[name].used.has(index) || !said.includes(String(lists[name].items[index]).toLowerCase())) continue;
      lists[name].used.delete(index);
      pruned.add(piece);
      freed += piece.price;
    }
    if (freed === 0) break;
    left += freed;
  }

  const byIndex = (items: Candidate[]) => [...items].sort((a, b) => a.index - b.index);
  const answer: DistilledContent = {
    ...base,
    summary: ranked.openingText ?? ([...(ranked.lead ? [ranked.lead] : []), ...byIndex(summary.filter((candidate) => candidate !== ranked.lead))].map((candidate) => asSentence(candidate.text)).join(' ') || base.summary),
    keyPoints: byIndex(keyPoints).map((candidate) => candidate.text),
    outline: chosen('outline', ranked.outline)
      .sort((a, b) => a.order - b.order)
      .map((entry) => entry.text),
    releases: byWhenChanged(slots.map(({ release, changes }) => ({ ...release, changes: release.changes.slice(0, changes) }))),
    facts: chosen('facts', ranked.facts),
    entities: chosen('entities', ranked.entities),
    keywords: chosen('keywords', ranked.keywords).filter((keyword) => !shownFacts.has(bareName(keyword))),
    numbers: chosen('numbers', ranked.numbers),
    dates: chosen('dates', ranked.dates),
  };
  return answer;
}

/** How much more (or less) a piece's units count than its rank alone says, by what it is. */
function weightOf(name: string, sentence: Candidate | undefined): number {
  if (name === 'numbers') return NUMBERS_WEIGHT;
  // A section's first sentence stating a rule (a default, a requirement), or the sentence saying again what its heading
  // advises, is what the section is there to say.
  if (name === 'sentences') return (sentence?.firstInSection && INFORMATIVE.test(sentence.text)) || sentence?.restatesHeading ? SECTION_RULE_WEIGHT : 1;
  return 1;
}

/** Lower case, whitespace collapsed: how the opening is searched for what it already says. */
const normal = (text: string) => text.replace(/\s+/g, ' ').toLowerCase();

/** The lists without what the opening already says: its sentences, facts given with their sentence, names and numbers. */
function beyondOpening(ranked: Ranked): Ranked {
  if (!ranked.openingText) return ranked;
  const opening = normal(ranked.openingText);
  // Whole, not by its start: the opening may have cut the sentence before the value it gives.
  const said = (text: string) => opening.includes(normal(text).replace(/^…|…$/g, '').trim());
  const named = (text: string) => opening.includes(normal(text));
  return {
    ...ranked,
    sentences: ranked.sentences.filter((candidate) => !said(candidate.text)),
    facts: ranked.facts.filter((fact) => !(said(fact.sentence) && (fact.kind === 'date' || fact.kind === 'version' || fact.kind === 'limit' || named(fact.fact.split(',').at(-1)!.trim())))),
    entities: ranked.entities.filter((entity) => !named(entity)),
    keywords: ranked.keywords.filter((keyword) => !named(keyword)),
    numbers: ranked.numbers.filter((number) => !named(number)),
    dates: ranked.dates.filter((date) => !named(date)),
  };
}

/** If the estimate still overshot, drops the last item of the costliest list. */
function trim(answer: DistilledContent, budget: number, countTokens: (text: string) => number): DistilledContent {
  const cost = (item: unknown) => countTokens(JSON.stringify(item)) + 1;
  const trimmed = ['keyPoints', 'facts', 'outline', 'entities', 'keywords', 'numbers', 'dates', 'releases'] as const;
  while (countTokens(JSON.stringify(answer)) > budget) {
    const costliest = trimmed.filter((name) => answer[name].length > 0).sort((a, b) => cost(answer[b]) - cost(answer[a]))[0];
    if (!costliest) break;
    answer[costliest].pop();
  }
  return answer;
}
