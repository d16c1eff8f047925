// A payer's cooperative refund request (a batch-settlement `refund` payload), served as the SDK's
// own HTTP middleware serves it: verified through the resource server (the server scheme checks that
// the voucher is for exactly the charged total and reserves the channel; the facilitator checks the
// payer authorizer's signature and that the channel holds money on chain), never running the tool,
// then settled (the server scheme adds the receiver authorizer's Refund signature and a claim of the
// latest voucher; the facilitator sends refundWithSignature, or claim and refund in one multicall).
// The answer is believed from the receipt's `Refunded` event, not from the facilitator's word.
//
// What bounds its cost to us: a transaction is sent only for a refund voucher signed by the channel's
// payer authorizer, of a channel holding more on chain than its charged total, equal to that total
// and to the voucher we hold, and whose simulation succeeds. The refund leaves the channel holding
// exactly its charged total, so the next request is refused (`…_refund_no_balance`) before any
// transaction: at most one refund per deposit, and each deposit is a payer's own money (≥ minDeposit).
import type { x402ResourceServer } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { Logger } from '../../../log.ts';
import type { CollectionTransaction } from '../../ledger/channel-payments.ts';
import { facilitatorUnavailable } from '../../gate-outcome.ts';
import type { GateOutcome } from '../../gate-outcome.ts';
import { atomicToUsdc } from '../../price.ts';
import type { PaymentAttempt } from '../payment-scheme.ts';
import type { ReceiptReader } from './channel-collector.ts';
import { CUMULATIVE_AMOUNT_MISMATCH, REFUND_AMOUNT_INVALID, REFUND_NO_BALANCE } from './reason-codes.ts';
import { readRefundReceipt } from './refund-receipt.ts';
import type { RefundReceipt } from './refund-receipt.ts';

/** Ours: a refund the facilitator reported settled but its `Refunded` event does not prove. */
export const REFUND_NOT_CONFIRMED = 'refund_not_confirmed';

/** One refund that went through, for the metrics. */
export interface RefundEvent {
  trigger: 'payer' | 'idle';
  channelId: string;
  /** The refund's transaction hash. */
  transaction: string;
  receipt: RefundReceipt;
}

/** A refund as the ledger's collection transactions record it: what went back to the payer, and its gas. */
export function refundCollection(event: RefundEvent): CollectionTransaction {
  return { step: 'refund', hash: event.transaction, amount: event.receipt.refunded, gas: event.receipt.gas, feeWei: event.receipt.feeWei };
}

export interface PayerRefundDependencies {
  resourceServer: x402ResourceServer;
  receipts: ReceiptReader;
  receiptTimeoutMs: number;
  /** The scheme's 402 for a refusal; a cumulative mismatch gets the channel's state added (the corrective 402). */
  corrective(attempt: PaymentAttempt, reason: string, message: string): Promise<GateOutcome>;
  /** settlePayment, its thrown refusals turned into failed responses. */
  settle(log: Logger, payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse>;
  onRefund?: ((event: RefundEvent) => void) | undefined;
  /** A refund that reached the facilitator's settle and failed there, or was not proven by its event. */
  onRefundFailed?: (() => void) | undefined;
}

export async function servePayerRefund(attempt: PaymentAttempt, channelId: string, deps: PayerRefundDependencies): Promise<GateOutcome> {
  const { payload, requirements, log } = attempt;
  let verified: Awaited<ReturnType<x402ResourceServer['verifyPayment']>>;
  try {
    verified = await deps.resourceServer.verifyPayment(payload, requirements);
  } catch (error) {
    log.error({ err: error }, 'channel refund verification could not run');
    return facilitatorUnavailable();
  }
  if (!verified.isValid) {
    return deps.corrective(attempt, verified.invalidReason ?? 'invalid_payment', verified.invalidMessage ?? 'the refund request was not accepted');
  }

  const settlement = await deps.settle(log, payload, requirements);
  if (!settlement.success) return refused(attempt, channelId, settlement, deps);

  let receipt: RefundReceipt;
  try {
    receipt = await readRefundReceipt(deps.receipts, settlement.transaction, channelId, deps.receiptTimeoutMs);
  } catch (error) {
    receipt = { refunded: 0n, claimed: 0n, gas: 0n, feeWei: 0n, problem: `refund ${settlement.transaction}: no receipt (${error instanceof Error ? error.message : String(error)})` };
  }
  if (receipt.problem !== undefined) {
    deps.onRefundFailed?.();
    log.error({ channelId, tx: settlement.transaction, problem: receipt.problem }, 'channel refund reported settled but not proven by its Refunded event');
    const failed: SettleResponse = { ...settlement, success: false, errorReason: REFUND_NOT_CONFIRMED, errorMessage: receipt.problem };
    return { kind: 'settlement_failed', settlement: failed, paymentRequired: attempt.ask(`${REFUND_NOT_CONFIRMED}: ${receipt.problem}; check the transaction before asking again`).paymentRequired };
  }
  deps.onRefund?.({ trigger: 'payer', channelId, transaction: settlement.transaction, receipt });
  log.info({ channelId, refunded: receipt.refunded.toString(), claimed: receipt.claimed.toString(), tx: settlement.transaction }, 'channel refunded on the payer\'s request');
  return {
    kind: 'refunded',
    settlement: { ...settlement, amount: receipt.refunded.toString() },
    result: {
      refunded: atomicToUsdc(receipt.refunded),
      refundedAtomic: receipt.refunded.toString(),
      channelId,
      transaction: settlement.transaction,
      message: `Channel ${channelId} refunded ${atomicToUsdc(receipt.refunded)} USDC to its payer (the Refunded event of ${settlement.transaction}). ${attempt.toolName} did not run and nothing was charged.`,
    },
  };
}

/** A settle that did not go through, worded by its reason; nothing was charged in any of them. */
async function refused(attempt: PaymentAttempt, channelId: string, settlement: SettleResponse, deps: PayerRefundDependencies): Promise<GateOutcome> {
  const reason = reasonOf(settlement);
  const said = settlement.errorMessage && settlement.errorMessage !== reason ? settlement.errorMessage : undefined;
  attempt.log.warn({ channelId, reason, message: said, tx: settlement.transaction }, 'channel refund not settled');
  switch (reason) {
    case CUMULATIVE_AMOUNT_MISMATCH:
      return deps.corrective(attempt, reason, 'the refund voucher is not for the channel\'s charged total; sign one for the chargedCumulativeAmount of extra.channelState');
    case REFUND_NO_BALANCE:
      return attempt.ask(`${reason}: channel ${channelId} holds nothing beyond what its calls were charged; there is nothing to refund`);
    case REFUND_AMOUNT_INVALID:
      return { kind: 'invalid_payment', paymentRequired: attempt.ask(`${reason}: the refund's amount must be a positive whole number of atomic units`).paymentRequired };
  }
  const why = [reason, said].filter(Boolean).join(': ');
  deps.onRefundFailed?.();
  if (settlement.transaction === '') return attempt.ask(`${why}; no transaction was sent and nothing was charged`);
  return { kind: 'settlement_failed', settlement: { ...settlement, errorReason: reason }, paymentRequired: attempt.ask(`Settlement failed: ${why}`).paymentRequired };
}

/** The SDK's server hooks throw bare reason codes (`new Error(ErrRefundNoBalance)`), which arrive as the message of a thrown settle. */
function reasonOf(settlement: SettleResponse): string {
  const message = settlement.errorMessage ?? '';
  if ((settlement.errorReason === undefined || settlement.errorReason === 'unexpected_settle_error') && /^invalid_batch_settlement_evm_[a-z_]+$/.test(message)) return message;
  return settlement.errorReason ?? 'unknown';
}
