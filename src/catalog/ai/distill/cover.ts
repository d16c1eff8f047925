// Budgeted maximum coverage (Khuller, Moss & Naor 1999; as used for summaries by Lin & Bilmes 2010):
// repeatedly take the candidate adding the most weight of units not yet covered per token it costs,
// among those that still fit. Gains only fall as more is covered, so a candidate's last computed ratio
// bounds its current one (lazy greedy): only the candidate on top is re-evaluated.
import type { Units } from './information-units.ts';

export interface CoverCandidate<T> {
  item: T;
  /** Tokens it costs in the answer. */
  price: number;
  units: Units;
  /** Multiplies its gain: what the candidate's own ranking says beyond its units (1 when nothing). */
  prior: number;
}

/** Weight of the units of `units` not in `covered`. */
export function newWeight(units: Units, covered: ReadonlySet<string>): number {
  let weight = 0;
  for (const [unit, unitWeight] of units) if (!covered.has(unit)) weight += unitWeight;
  return weight;
}

/**
 * Picks candidates greedily by new weight per token (price to the power `exponent`, below 1 to favour
 * longer pieces a little) while they fit in `budget`; adds what each pick covers to `covered`. Ties go
 * to the earlier candidate. `accept` may refuse a pick (it is then dropped) and is told each one taken.
 */
export function greedyCover<T>(candidates: readonly CoverCandidate<T>[], covered: Set<string>, budget: number, accept: (item: T) => boolean, exponent = 1): { picked: T[]; spent: number } {
  const ratio = (candidate: CoverCandidate<T>) => (newWeight(candidate.units, covered) * candidate.prior) / Math.max(1, candidate.price) ** exponent;
  const bounds = candidates.map(ratio);
  const alive = candidates.map((candidate) => candidate.price <= budget);
  const picked: T[] = [];
  let spent = 0;
  for (;;) {
    let best = -1;
    for (let i = 0; i < candidates.length; i += 1) {
      if (!alive[i]) continue;
      if (candidates[i]!.price > budget - spent) alive[i] = false;
      else if (best < 0 || bounds[i]! > bounds[best]!) best = i;
    }
    if (best < 0 || bounds[best]! <= 0) break;
    const current = ratio(candidates[best]!);
    // Still the best once re-evaluated (every other bound is an upper bound): take it.
    const beaten = candidates.some((_, i) => i !== best && alive[i] && (bounds[i]! > current || (bounds[i] === current && i < best)));
    bounds[best] = current;
    if (beaten || current <= 0) continue;
    alive[best] = false;
    const candidate = candidates[best]!;
    if (!accept(candidate.item)) continue;
    picked.push(candidate.item);
    spent += candidate.price;
    for (const unit of candidate.units.keys()) covered.add(unit);
  }
  return { picked, spent };
}
