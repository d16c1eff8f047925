// Ranks a document's dates, numbers, entities and keywords: repetition counts, and so do the
// places a reader looks first (the title, the headings, the opening paragraphs).
import { onlyDenied } from './denied.ts';
import type { ReadDocument } from './document.ts';
import { byImportance, extractDates, extractEntities, extractNumbers, withoutContained, type FactCount } from './facts.ts';
import { rankKeywords } from './keywords.ts';
import { maskUrls } from './mask-urls.ts';

export interface RankedFacts {
  dates: string[];
  numbers: string[];
  entities: string[];
  keywords: string[];
}

/** The text of some blocks, web addresses blanked: their fragments are not facts. */
const textOf = (document: ReadDocument, kinds: (kind: string) => boolean) =>
  maskUrls(document.blocks.filter((block) => kinds(block.kind)).map((block) => block.text).join('\n'));
/** How many of the best entities and keywords are checked against denials. */
const CHECKED = 60;
const notDenied = (terms: string[], text: string) => terms.filter((term, i) => i >= CHECKED || !onlyDenied(term, text));

/** The opening: the first three paragraphs of some length (pages may start with navigation lists). */
export function openingOf(document: ReadDocument): string {
  return document.blocks
    .filter((block) => (block.kind === 'paragraph' || block.kind === 'item') && block.text.split(' ').length >= 12)
    .slice(0, 3)
    .map((block) => block.text)
    .join('\n');
}

export function rankFacts(document: ReadDocument, title: string): RankedFacts {
  const prose = textOf(document, (kind) => kind !== 'code');
  // Headings name sections with capitals of their own ("FILES", "Technical Details"): not entities.
  const body = textOf(document, (kind) => kind !== 'code' && kind !== 'heading');
  const headings = textOf(document, (kind) => kind === 'heading').toLowerCase();
  const opening = openingOf(document);
  const titleLower = title.toLowerCase();
  const openingLower = opening.toLowerCase();
  const boost = (fact: FactCount) => {
    const text = fact.text.toLowerCase();
    return (titleLower.includes(text) ? 3 : 0) + (headings.includes(text) ? 1 : 0) + (openingLower.includes(text) ? 2 : 0) + (text.includes(' ') ? 1 : 0);
  };
  // Money and shares say more than counts of things.
  const numberBoost = (fact: FactCount) => boost(fact) + (/[$€£¥₹%]|\b(?:USD|EUR|GBP|USDC|percent)\b/.test(fact.text) ? 1.5 : 0);

  const { dates, masked } = extractDates(prose);
  // Dates are masked first, so "Q3 2026" does not also yield an entity "Q3".
  const entities = notDenied(withoutContained(byImportance(extractEntities(extractDates(body).masked), boost).slice(0, 200).map((fact) => fact.text)), body);
  const entitySet = new Set(entities.slice(0, 40).map((entity) => entity.toLowerCase()));
  return {
    dates: byImportance(dates, boost).map((fact) => fact.text),
    numbers: byImportance(extractNumbers(masked), numberBoost).map((fact) => fact.text),
    entities,
    keywords: notDenied(rankKeywords(prose, opening, document.codeTerms, entitySet, textOf(document, (kind) => kind === 'code')).map((keyword) => keyword.text), prose),
  };
}
