// What the gate answers a call, whatever the face and the scheme, and the answers shared by the
// gate and its schemes. The faces turn each kind into HTTP statuses or MCP results.
import type { PaymentRequired, SettleResponse } from '@x402/core/types';
import type { InputIssue } from '../catalog/validate-input.ts';
import type { ToolError } from '../errors/tool-error.ts';

export type GateOutcome =
  | { kind: 'invalid_input'; issues: InputIssue[] }
  | { kind: 'not_implemented'; message: string }
  | { kind: 'payment_required'; paymentRequired: PaymentRequired }
  /**
   * The payment is not an x402 v2 payment of a scheme we offer at all (not base64 JSON, not a v2
   * payload, a scheme payload of the wrong shape, padded past the size limit): HTTP answers 400, as
   * x402's transport table says of an invalid payment, with the PaymentRequired to start over.
   */
  | { kind: 'invalid_payment'; paymentRequired: PaymentRequired }
  | { kind: 'tool_failed'; status: number; code: string; message: string; details?: Readonly<Record<string, unknown>>; retryAfterSeconds?: number }
  | { kind: 'unavailable'; code: 'ledger_unavailable' | 'facilitator_unavailable'; message: string }
  | { kind: 'settlement_failed'; settlement: SettleResponse; paymentRequired: PaymentRequired }
  | { kind: 'conflict'; code: 'payment_identifier_conflict' | 'payment_identifier_in_progress' | 'payment_identifier_expired'; message: string }
  /** `replayed`: a retry carrying the payment-identifier of a settled payment, answered from the ledger. */
  | { kind: 'paid'; result: unknown; settlement: SettleResponse; replayed?: true }
  /**
   * The payment was itself the request and no tool ran: a payment channel's cooperative refund,
   * answered like a paid call (200, the settlement in PAYMENT-RESPONSE / _meta) with `result` saying
   * what came back. Nothing is charged and it is no revenue.
   */
  | { kind: 'refunded'; result: unknown; settlement: SettleResponse };

export type ToolFailed = Extract<GateOutcome, { kind: 'tool_failed' }>;

export function toolFailed(error: ToolError): ToolFailed {
  return {
    kind: 'tool_failed', status: error.status, code: error.code, message: error.message,
    ...(error.details ? { details: error.details } : {}),
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  };
}

export function facilitatorUnavailable(): GateOutcome {
  return {
    kind: 'unavailable',
    code: 'facilitator_unavailable',
    message: 'The payment could not be verified right now (chain or facilitator unreachable); nothing was charged. Retry later.',
  };
}

export function ledgerUnavailable(): GateOutcome {
  return { kind: 'unavailable', code: 'ledger_unavailable', message: 'The payment ledger is unavailable; nothing was charged. Retry later.' };
}
