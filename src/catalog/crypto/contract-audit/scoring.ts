// The safety score: 100 less the weight of every finding, floored at 0, and a verdict. Each finding
// carries its evidence; what could not be checked is listed as unknown and weighs a little, never
// passed silently. A honeypot is high risk whatever else is found.
export type Severity = 'critical' | 'high' | 'medium' | 'low' | 'info' | 'unknown';

export interface Finding {
  id: string;
  severity: Severity;
  /** Points taken off the score of 100. */
  weight: number;
  title: string;
  evidence: Record<string, unknown>;
}

export const WEIGHTS = {
  honeypot: 60,
  taxHigh: 20, // a buy or sell tax over 10%
  taxSome: 10, // a buy or sell tax from 1% to 10%
  mint: 15,
  blacklist: 15,
  upgradeable: 15,
  selfdestruct: 20,
  pause: 10,
  fees: 10,
  trading: 10,
  delegatecall: 10, // outside a proxy's own forwarding
  limits: 5,
  ownerNotRenounced: 5,
  notSimulated: 10,
  thinLiquidity: 10, // under 10,000 USD
  noLiquidityData: 5,
} as const;

export const THIN_LIQUIDITY_USD = 10_000;

export function verdictOf(findings: readonly Finding[]): { score: number; verdict: 'high risk' | 'caution' | 'no red flags found' | 'no red flags found in what could be checked' } {
  const score = Math.max(0, 100 - findings.reduce((sum, f) => sum + f.weight, 0));
  if (findings.some((f) => f.id === 'honeypot') || score < 40) return { score, verdict: 'high risk' };
  if (score < 70) return { score, verdict: 'caution' };
  return { score, verdict: findings.some((f) => f.severity === 'unknown') ? 'no red flags found in what could be checked' : 'no red flags found' };
}
