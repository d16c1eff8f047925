// What collecting channel payments cost, from the transactions recorded in `channel_collections`:
// the deposits our channel settler sent, the claims, the settles and the refunds, each with its gas and fee.
import type { SqlQueries } from './sql-client.ts';

export type CollectionStep = 'deposit' | 'claim' | 'settle' | 'refund';

export interface CollectionStepTotals {
  transactions: number;
  /** Atomic USDC the transactions moved (deposited, claimed, settled, refunded to payers). */
  amount: bigint;
  gas: bigint;
  /** Gas × effective gas price, in wei. */
  feeWei: bigint;
}

export type ChannelCollectionReport = Record<CollectionStep, CollectionStepTotals>;

const steps: readonly CollectionStep[] = ['deposit', 'claim', 'settle', 'refund'];

export async function channelCollection(db: SqlQueries): Promise<ChannelCollectionReport> {
  const { rows } = await db.query<{ step: CollectionStep; transactions: number; amount: string; gas: string; fee: string }>(
    `SELECT step, COUNT(*)::int AS transactions, SUM(amount)::text AS amount, SUM(gas_used)::text AS gas, SUM(fee_wei)::text AS fee
       FROM channel_collections GROUP BY step`,
  );
  const byStep = new Map(rows.map((row) => [row.step, row]));
  return Object.fromEntries(steps.map((step) => {
    const row = byStep.get(step);
    return [step, { transactions: Number(row?.transactions ?? 0), amount: BigInt(row?.amount ?? 0), gas: BigInt(row?.gas ?? 0), feeWei: BigInt(row?.fee ?? 0) }];
  })) as ChannelCollectionReport;
}
