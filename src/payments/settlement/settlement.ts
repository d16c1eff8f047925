// What the payment gate hands over once a tool's result is ready: the settlement of one payment.
// Implementations record every step in the ledger themselves (the gate only reads the answer).
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { Eip3009Payload } from '../exact-evm-payload.ts';

/**
 * When the caller gets its result: `confirmed` after the settlement's receipt (at the configured
 * depth), `submitted` once the node accepted the settlement transaction (the receipt is reconciled
 * after; see docs/settlement.md for the risk).
 */
export type SettlementMode = 'confirmed' | 'submitted';
export const settlementModes: readonly SettlementMode[] = ['confirmed', 'submitted'];

/** A contract payer's settlement refused, unsent, while the hour's budget of on-chain failures is spent. */
export const CONTRACT_PAYERS_PAUSED = 'contract_payers_paused';

export interface SettlementRequest {
  /** The payment's ledger row, in state `settling`. */
  paymentId: number;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  authorization: Eip3009Payload;
}

export interface Settlement {
  readonly mode: SettlementMode;
  /** Moves its payments to `settling` itself (with the transaction's hash, before sending it). */
  readonly marksSettling: boolean;
  settle(request: SettlementRequest): Promise<SettleResponse>;
  /** Takes no more work; settles what is queued and waits for what is in flight, at most `timeoutMs`. */
  drain(timeoutMs: number): Promise<void>;
}
