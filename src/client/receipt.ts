// What a paid call cost and where the money went: the gateway's x402 settlement response, with
// the price in USDC and a block explorer link where the network has one.
import type { SettleResponse } from '@x402/core/types';
import { transactionLink } from './explorer.ts';
import { formatUsdc } from './usdc-amount.ts';

export interface Receipt {
  /** Price paid, USDC decimal ("0.001"). */
  price: string;
  /** The same, atomic units. */
  amount: string;
  network: string;
  payer: string;
  payTo: string;
  /** The settlement's transaction hash. */
  transaction: string;
  /** e.g. https://basescan.org/tx/0x… ; absent on a local chain. */
  explorerUrl?: string;
  /** How it was paid: `exact` (one transfer per call) or `batch-settlement` (from a payment channel). */
  scheme: 'exact' | 'batch-settlement';
  /**
   * A channel payment: the channel, this call's deposit if it made one, and after this call what
   * was charged from it and what the client believes it holds (USDC decimals). `transaction` is
   * the deposit's, or "" for a voucher (nothing goes on chain until the gateway claims).
   */
  channel?: { id: string; deposit?: string; charged: string; balance: string };
  /** Why a channel was offered but this call paid with `exact` (e.g. the deposit does not fit the budget). */
  fallback?: string;
}

export function receiptOf(settlement: SettleResponse, amount: bigint, payTo: string, fallback?: string): Receipt {
  const explorerUrl = transactionLink(settlement.network, settlement.transaction);
  return {
    scheme: 'exact',
    price: formatUsdc(amount),
    amount: amount.toString(),
    network: settlement.network,
    payer: settlement.payer ?? '',
    payTo,
    transaction: settlement.transaction,
    ...(explorerUrl ? { explorerUrl } : {}),
    ...(fallback ? { fallback } : {}),
  };
}

export function channelReceipt(
  settlement: SettleResponse,
  amount: bigint,
  payTo: string,
  payer: string,
  channel: { id: string; deposit?: bigint; charged: bigint; balance: bigint },
): Receipt {
  const explorerUrl = settlement.transaction ? transactionLink(settlement.network, settlement.transaction) : undefined;
  return {
    scheme: 'batch-settlement',
    price: formatUsdc(amount),
    amount: amount.toString(),
    network: settlement.network,
    payer,
    payTo,
    transaction: settlement.transaction,
    ...(explorerUrl ? { explorerUrl } : {}),
    channel: {
      id: channel.id,
      ...(channel.deposit !== undefined ? { deposit: formatUsdc(channel.deposit) } : {}),
      charged: formatUsdc(channel.charged),
      balance: formatUsdc(channel.balance),
    },
  };
}
