// Fills the answer within a token budget: each part first takes up to its share, then what is
// left goes round the lists one item at a time, and the exact count of the JSON has the last word.
import type { DistilledContent } from './distill-document.ts';
import type { Candidate } from './rank-sentences.ts';

export interface OutlineEntry {
  text: string;
  /** Heading level: lower levels are kept first. */
  rank: number;
  /** Position in the document. */
  order: number;
}

export interface Ranked {
  /** Best first. */
  sentences: readonly Candidate[];
  /** Best first. */
  outline: readonly OutlineEntry[];
  entities: readonly string[];
  keywords: readonly string[];
  numbers: readonly string[];
  dates: readonly string[];
}

type ListName = 'keyPoints' | 'outline' | 'entities' | 'keywords' | 'numbers' | 'dates';

/** Share of the budget (after the fixed fields) each part may take in the first pass. */
const SHARES: Record<'summary' | ListName, number> = { summary: 0.3, keyPoints: 0.27, outline: 0.15, entities: 0.1, keywords: 0.07, numbers: 0.06, dates: 0.05 };
const LIST_ORDER: readonly ListName[] = ['keyPoints', 'outline', 'entities', 'keywords', 'numbers', 'dates'];
/** Items are priced one by one; joined in JSON they cost a little more. */
const JOIN_MARGIN = 0.95;
const MAX_SUMMARY_SENTENCES = 5;
const MAX_SUMMARY_SENTENCES_SHORT = 3;
const SHORT_BUDGET = 400;

const byPosition = <T extends { index: number } | { order: number }>(items: T[]) =>
  items.sort((a, b) => ('index' in a ? a.index : a.order) - ('index' in b ? b.index : b.order));

/** List items often lack a full stop; one is added so the summary reads as sentences. */
const asSentence = (text: string) => (/[.!?:…"'”)]$/.test(text) ? text : `${text}.`);

export function fitBudget(base: DistilledContent, ranked: Ranked, budget: number, countTokens: (text: string) => number): { answer: DistilledContent; output: number } {
  const cost = (item: string) => countTokens(JSON.stringify(item)) + 1;
  const available = Math.max(0, Math.floor(budget * JOIN_MARGIN) - countTokens(JSON.stringify(base)));

  // Summary: the best sentences, at least one (the lead comes first in the ranking).
  const summary: Candidate[] = [];
  let spent = 0;
  for (const candidate of ranked.sentences.slice(0, budget < SHORT_BUDGET ? MAX_SUMMARY_SENTENCES_SHORT : MAX_SUMMARY_SENTENCES)) {
    const price = cost(candidate.text);
    if (summary.length > 0 && spent + price > available * SHARES.summary) break;
    summary.push(candidate);
    spent += price;
  }
  const keyPoints = ranked.sentences.filter((candidate) => !summary.includes(candidate));
  const pools: Record<ListName, readonly string[]> = {
    keyPoints: keyPoints.map((candidate) => candidate.text),
    outline: ranked.outline.map((entry) => entry.text),
    entities: ranked.entities,
    keywords: ranked.keywords,
    numbers: ranked.numbers,
    dates: ranked.dates,
  };
  const taken: Record<ListName, number> = { keyPoints: 0, outline: 0, entities: 0, keywords: 0, numbers: 0, dates: 0 };
  const spentOn: Record<ListName, number> = { keyPoints: 0, outline: 0, entities: 0, keywords: 0, numbers: 0, dates: 0 };
  let left = available - spent;
  const take = (name: ListName, price: number) => {
    taken[name] += 1;
    spentOn[name] += price;
    left -= price;
  };
  for (const name of LIST_ORDER) {
    while (taken[name] < pools[name].length) {
      const price = cost(pools[name][taken[name]]!);
      if (spentOn[name] + price > available * SHARES[name] || price > left) break;
      take(name, price);
    }
  }
  // Then round the lists, one item each per round, cheap facts before costly sentences.
  for (let progressed = true; progressed; ) {
    progressed = false;
    for (const name of [...LIST_ORDER].reverse()) {
      const next = pools[name][taken[name]];
      if (next === undefined || cost(next) > left) continue;
      take(name, cost(next));
      progressed = true;
    }
  }

  const answer: DistilledContent = {
    ...base,
    summary: byPosition([...summary]).map((candidate) => asSentence(candidate.text)).join(' '),
    keyPoints: byPosition(keyPoints.slice(0, taken.keyPoints)).map((candidate) => candidate.text),
    outline: byPosition(ranked.outline.slice(0, taken.outline)).map((entry) => entry.text),
    entities: ranked.entities.slice(0, taken.entities),
    keywords: ranked.keywords.slice(0, taken.keywords),
    numbers: ranked.numbers.slice(0, taken.numbers),
    dates: ranked.dates.slice(0, taken.dates),
  };
  // If the estimate still overshot, drop the last item of the list that costs most.
  let output = countTokens(JSON.stringify(answer));
  while (output > budget) {
    const costliest = LIST_ORDER.filter((name) => answer[name].length > 0).sort((a, b) => spentOn[b] - spentOn[a])[0];
    if (!costliest) break;
    spentOn[costliest] -= cost(answer[costliest].pop()!);
    output = countTokens(JSON.stringify(answer));
  }
  return { answer, output };
}
