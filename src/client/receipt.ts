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
}

export function receiptOf(settlement: SettleResponse, amount: bigint, payTo: string): Receipt {
  const explorerUrl = transactionLink(settlement.network, settlement.transaction);
  return {
    price: formatUsdc(amount),
    amount: amount.toString(),
    network: settlement.network,
    payer: settlement.payer ?? '',
    payTo,
    transaction: settlement.transaction,
    ...(explorerUrl ? { explorerUrl } : {}),
  };
}
