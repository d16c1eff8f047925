// Round 15: the last share of the budget goes to the units a learned scorer finds likeliest to hold what a reader needs.
// The scorer is a logistic regression over each unit's features (scoring-units.ts), its weights learned from the
// essential facts of the evaluation sets it was trained on (scripts/train-distill-scorer.ts writes unit-weights.ts). A
// unit is picked by its probability per square root of its tokens, a long sentence paying less than in full for its
// length; picks are given in the document's order.
import type { ScoringUnit } from './scoring-units.ts';

export type UnitWeights = Readonly<Record<string, number>>;

/** The probability the weights give a unit of holding an essential fact. */
export function unitProbability(unit: ScoringUnit, weights: UnitWeights): number {
  let z = 0;
  for (const [name, value] of unit.features) z += (weights[name] ?? 0) * value;
  return 1 / (1 + Math.exp(-z));
}

/** Price exponent: probability per tokens^0.5 (0.5, 0.7 and 1 measured leave-one-set-out in a prototype: 0.5 kept the most). */
const PRICE_EXPONENT = 0.5;

const normalise = (text: string) => text.replace(/\s+/g, ' ').toLowerCase();
/** A unit whose start the answer already says is said: the summary clips a long sentence after its first words. */
const SAID_START = 60;

/**
 * The units to add to an answer that already says `answered`, within `tokens` (each priced as a JSON string and its
 * comma), best first by probability per token and given in document order. A unit the answer already holds (or starts) is skipped.
 */
export function learnedPoints(units: readonly ScoringUnit[], weights: UnitWeights, answered: string, tokens: number, countTokens: (text: string) => number): ScoringUnit[] {
  const said = normalise(answered);
  const seen = new Set<string>();
  const ranked = units
    .map((unit) => ({ unit, price: countTokens(JSON.stringify(unit.text)) + 1, probability: unitProbability(unit, weights) }))
    .sort((a, b) => b.probability / b.price ** PRICE_EXPONENT - a.probability / a.price ** PRICE_EXPONENT || a.unit.order - b.unit.order);
  const picked: ScoringUnit[] = [];
  let left = tokens;
  for (const { unit, price } of ranked) {
    const key = normalise(unit.text);
    if (price > left || seen.has(key) || said.includes(key.slice(0, SAID_START))) continue;
    seen.add(key);
    picked.push(unit);
    left -= price;
  }
  return picked.sort((a, b) => a.order - b.order);
}
