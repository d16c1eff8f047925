// Which channels a regular collection pass claims. A claim row costs ~24k gas, about a third of a
// 0.001 USDC price on Base: claiming every channel with a new charge on every pass makes a payer who
// calls once a minute cost a third of what it pays. A channel is claimed when what it owes is worth
// a row, when it has gone quiet (nothing more is coming to share the row), or at once when its payer
// has started a withdrawal (the watcher's claim; a voucher unclaimed at the deadline is lost).
// At most `minUnclaimed` per active channel is at risk between claims; shutdown claims everything.
import type { Channel } from '@x402/evm/batch-settlement/server';

export interface ClaimPolicy {
  /** Atomic USDC: a channel owing at least this is claimed. */
  minUnclaimed: bigint;
  /** A channel with no request for this long is claimed whatever it owes. */
  maxIdleMs: number;
}

export function dueForClaim(channel: Channel, policy: ClaimPolicy, nowMs: number): boolean {
  const owed = BigInt(channel.chargedCumulativeAmount) - BigInt(channel.totalClaimed);
  if (owed <= 0n) return false;
  return channel.withdrawRequestedAt > 0 || owed >= policy.minUnclaimed || nowMs - channel.lastRequestTimestamp >= policy.maxIdleMs;
}
