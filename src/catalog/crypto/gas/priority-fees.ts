// Priority fees per speed from eth_feeHistory: each block's reward at a percentile (of the priority
// fees paid in it, weighted by gas), and per speed the median of those over the blocks that carried
// transactions.
export const FEE_HISTORY_BLOCKS = 20;

export const SPEEDS = [
  { speed: 'slow', percentile: 25 },
  { speed: 'normal', percentile: 50 },
  { speed: 'fast', percentile: 90 },
] as const;

export type Speed = (typeof SPEEDS)[number]['speed'];

export interface FeeHistoryLike {
  reward?: readonly (readonly bigint[])[];
  gasUsedRatio: readonly number[];
  baseFeePerGas: readonly bigint[];
}

function median(values: readonly bigint[]): bigint {
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2n;
}

/** Priority fee in wei per speed; blocks with no gas used (no transactions) are left out. Zero when no block had any. */
export function priorityFeesOf(history: FeeHistoryLike): { fees: Record<Speed, bigint>; blocksUsed: number } {
  const rewards = history.reward ?? [];
  const used = rewards.filter((_, index) => (history.gasUsedRatio[index] ?? 0) > 0);
  const fees = {} as Record<Speed, bigint>;
  SPEEDS.forEach(({ speed }, column) => {
    const values = used.map((row) => row[column]).filter((v): v is bigint => v !== undefined);
    fees[speed] = values.length > 0 ? median(values) : 0n;
  });
  return { fees, blocksUsed: used.length };
}
