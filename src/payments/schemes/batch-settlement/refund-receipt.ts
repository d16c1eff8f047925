// A cooperative refund is believed by its `Refunded` event only: the facilitator reports success on
// the receipt's status (x402 #3092, #3096), and a remote facilitator is not ours to trust. The
// receipt is read here, as the collector reads its claims' `Claimed` and `Settled` events.
import type { Hex } from 'viem';
import { settlementEventArgs } from '../../../chain/batch-settlement-contracts.ts';
import type { ReceiptReader } from './channel-collector.ts';

/** What one refund transaction did, from its receipt. */
export interface RefundReceipt {
  /** Atomic USDC given back to the channel's payer (0 when the event is missing or the transaction failed). */
  refunded: bigint;
  /** Vouchers claimed in the same transaction (a refund claims what it has not claimed yet). */
  claimed: bigint;
  gas: bigint;
  feeWei: bigint;
  /** Why it is not a refund, when it is not one. */
  problem?: string;
}

export async function readRefundReceipt(receipts: ReceiptReader, transaction: string, channelId: string, timeoutMs: number): Promise<RefundReceipt> {
  if (!/^0x[0-9a-fA-F]{64}$/.test(transaction)) return { refunded: 0n, claimed: 0n, gas: 0n, feeWei: 0n, problem: `no refund transaction (got ${JSON.stringify(transaction)})` };
  const receipt = await receipts.waitForTransactionReceipt({ hash: transaction as Hex, timeout: timeoutMs });
  const cost = { gas: receipt.gasUsed, feeWei: receipt.gasUsed * (receipt.effectiveGasPrice ?? 0n) };
  if (receipt.status !== 'success') return { refunded: 0n, claimed: 0n, ...cost, problem: `refund ${transaction} reverted` };
  const ofChannel = (eventName: 'Refunded' | 'Claimed', field: string) =>
    settlementEventArgs(receipt, eventName)
      .filter((args) => typeof args.channelId === 'string' && args.channelId.toLowerCase() === channelId.toLowerCase())
      .map((args) => args[field])
      .filter((amount): amount is bigint => typeof amount === 'bigint');
  const refunds = ofChannel('Refunded', 'amount');
  const claimed = ofChannel('Claimed', 'claimAmount').reduce((sum, amount) => sum + amount, 0n);
  if (refunds.length === 0) return { refunded: 0n, claimed, ...cost, problem: `refund ${transaction}: no Refunded event for channel ${channelId}` };
  return { refunded: refunds.reduce((sum, amount) => sum + amount, 0n), claimed, ...cost };
}
