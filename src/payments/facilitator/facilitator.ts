// The one interface the payment gate verifies through. Two implementations: embedded (verifies
// locally) and remote (any x402 v2 facilitator over HTTP, which also settles: see
// settlement/facilitator-settlement.ts; the embedded one settles through the settlement engine).
import type { PaymentPayload, PaymentRequirements, SupportedResponse, VerifyResponse } from '@x402/core/types';
import type { Address, Hex } from 'viem';
import type { Eip3009Payload } from '../exact-evm-payload.ts';

/** Who is asking: what a facilitator may budget its chain reads by. */
export interface VerifyContext {
  /** The caller's address (proxy-aware). */
  client: string;
}

export interface Facilitator {
  readonly kind: 'embedded' | 'remote';
  verify(payload: PaymentPayload, requirements: PaymentRequirements, context?: VerifyContext): Promise<VerifyResponse>;
  /**
   * Reads the authorization's nonce state and the payer's balance from the chain now, uncached:
   * undefined if it can still settle, else why not. Facilitators that simulate in `verify` need not.
   */
  checkOnChainNow?(authorization: Eip3009Payload): Promise<{ reason: string; message: string } | undefined>;
  /** The chain refused one of this payer's payments: what is cached about the payer is stale. */
  payerRefused?(payer: string): void;
  supported(): Promise<SupportedResponse>;
  /**
   * A payment this facilitator verified is over: `moved` if its USDC left the payer. Lets a
   * facilitator keep a view of balances net of payments in flight.
   */
  paymentFinished?(payer: string, value: bigint, moved: boolean): void;
  /**
   * Whether USDC records this payer's nonce as used or cancelled (one chain read). Only a facilitator
   * that reads the chain itself has it; without it a retry must carry the very authorization first sent.
   */
  authorizationUsed?(payer: Address, nonce: Hex): Promise<boolean>;
}

/**
 * A settle response with `errorReason: "settlement_pending"` and a transaction hash means the outcome
 * is unknown (sent, receipt not seen in time): never ask for it twice.
 */

export const SETTLEMENT_PENDING = 'settlement_pending';
