// The one interface the payment gate uses to verify and settle. Two implementations: embedded
// (verifies locally, settles with its own gas key over an RPC URL) and remote (any x402 v2
// facilitator over HTTP).
import type { PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse, VerifyResponse } from '@x402/core/types';

export interface Facilitator {
  readonly kind: 'embedded' | 'remote';
  verify(payload: PaymentPayload, requirements: PaymentRequirements): Promise<VerifyResponse>;
  /**
   * Moves the money. A response with `errorReason: "settlement_pending"` and a transaction hash
   * means the outcome is unknown (sent, receipt not seen in time): never ask for it twice.
   */
  settle(payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
  supported(): Promise<SupportedResponse>;
}

export const SETTLEMENT_PENDING = 'settlement_pending';
