// Serving a retry from what the first attempt stored (what proves the retry is the payer's:
// retry-proof.ts).
import { getAddress } from 'viem';
import type { SettleResponse } from '@x402/core/types';
import type { PaymentRecord } from '../ledger/payment-ledger.ts';

/** The PAYMENT-RESPONSE the first attempt answered with, rebuilt from the ledger's row. */
export function storedSettlement(record: PaymentRecord): SettleResponse {
  // A channel's response carries the channel's state, by which the client advances its charged total.
  if (record.paymentResponse !== null) return JSON.parse(record.paymentResponse) as SettleResponse;
  return { success: true, transaction: record.txHash ?? '', network: record.network as SettleResponse['network'], payer: getAddress(record.payer) };
}
