// x402's `batch-settlement` scheme (payment channels) as a part of the gate. The logic is the
// official SDK's: @x402/evm's server scheme, whose hooks @x402/core's x402ResourceServer calls in
// their fixed order. This class only maps the gate's steps onto the resource server:
//   requirements -> buildPaymentRequirements (prepared at start, one object per price)
//   admit        -> verifyPayment: the server scheme checks the voucher's cumulative amount and
//                   reserves the channel for this request (a deposit is verified by the facilitator)
//   commit       -> settlePayment: a deposit goes on chain (receipt awaited); a voucher's charge is
//                   recorded in channel storage, with its ledger row in the same transaction
//                   (channel-ledger.ts, which also answers payment-identifier retries)
//   release      -> clearPendingRequest: the reservation is dropped, nothing is charged, and the
//                   payer's next voucher is for the same cumulative amount
// A `refund` payload is answered in admit, without the tool: payer-refund.ts.
// With `localVouchers`, a plain voucher on a channel whose record expects it skips the SDK's verify
// and settle: checked, reserved and charged by local-vouchers.ts (same conditions, same answer, a
// fifth of the work); everything else still takes the SDK's path.
import type { x402ResourceServer } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { BatchSettlementEvmScheme as ServerScheme } from '@x402/evm/batch-settlement/server';
import type { Logger } from '../../../log.ts';
import { facilitatorUnavailable } from '../../gate-outcome.ts';
import type { GateOutcome } from '../../gate-outcome.ts';
import { usdcToAtomic } from '../../price.ts';
import type { PaymentTerms } from '../../requirements.ts';
import type { Admission, HeldCharge, PaymentAttempt, PaymentScheme } from '../payment-scheme.ts';
import { checkBatchSettlementPayload } from './batch-settlement-payload.ts';
import type { CheckedBatchSettlementPayload } from './batch-settlement-payload.ts';
import type { ChannelCall, ChannelLedger } from './channel-ledger.ts';
import type { ReceiptReader } from './channel-collector.ts';
import type { LocalVouchers, VoucherPayload } from './local-vouchers.ts';
import type { KeyedRequest } from '../../idempotency/retry-answers.ts';
import { servePayerRefund } from './payer-refund.ts';
import { CHANNEL_BUSY, CUMULATIVE_AMOUNT_MISMATCH, CUMULATIVE_BELOW_CLAIMED, CUMULATIVE_EXCEEDS_BALANCE } from './reason-codes.ts';
import type { RefundEvent } from './payer-refund.ts';

export const BATCH_SETTLEMENT = 'batch-settlement';

export interface BatchSettlementSchemeOptions {
  /** Initialized, with `serverScheme` registered for `terms.network`. */
  resourceServer: x402ResourceServer;
  serverScheme: ServerScheme;
  terms: PaymentTerms;
  /** `extra.minDeposit` is this many calls at the tool's price: the deposit the SDK's client makes. */
  minDepositCalls: number;
  /** The prices the catalogue sells at: their requirements are built once, here. */
  prices: readonly string[];
  /** Where a refund's receipt is read for its `Refunded` event. */
  receipts: ReceiptReader;
  receiptTimeoutMs: number;
  log: Logger;
  /** Channel calls as ledger rows, and payment-identifier retries answered from them. */
  ledger?: ChannelLedger;
  /** Refuses voucher signatures the contract refuses; with a store (TOOLGATE_CHANNEL_VOUCHER_CHECK=local) it also reserves and charges plain vouchers. */
  localVouchers?: LocalVouchers;
}

/** How a held channel payment is charged or let go: the SDK's reservation, or the local check's. */
interface Reservation {
  settle(): Promise<SettleResponse>;
  release(): Promise<void>;
}

export const CHANNEL_WITHDRAWING = 'channel_withdrawing';
/** The refusals after which the official client reads the channel's state from the 402 (or the chain) and signs again. */
const RESYNC_REASONS: ReadonlySet<string> = new Set([CUMULATIVE_AMOUNT_MISMATCH, CUMULATIVE_BELOW_CLAIMED]);

export class BatchSettlementScheme implements PaymentScheme {
  readonly name = BATCH_SETTLEMENT;
  /** Told of every payer-requested refund proven by its event (the metrics). */
  onRefund: ((event: RefundEvent) => void) | undefined;
  onRefundFailed: (() => void) | undefined;
  /** Told which path checked and held each voucher payment that reached the tool (the metrics). */
  onVoucherHeld: ((check: 'local' | 'sdk') => void) | undefined;

  private constructor(
    private readonly options: BatchSettlementSchemeOptions,
    private readonly offers: Map<string, PaymentRequirements>,
  ) {}

  /** The resource server builds requirements asynchronously; the gate asks synchronously. */
  static async create(options: BatchSettlementSchemeOptions): Promise<BatchSettlementScheme> {
    const offers = new Map<string, PaymentRequirements>();
    for (const price of new Set(options.prices)) offers.set(price, await buildRequirements(options, price));
    return new BatchSettlementScheme(options, offers);
  }

  requirements(price: string): PaymentRequirements {
    let offered = this.offers.get(price);
    if (!offered) {
      // A price outside the catalogue (a sample in a document): the SDK's enhancement depends on
      // nothing but the price's amount and our minDeposit, so a prepared offer is re-priced.
      const [template] = this.offers.values();
      if (!template) throw new Error('batch-settlement: no requirements were prepared at start');
      const amount = usdcToAtomic(price);
      offered = { ...template, amount: amount.toString(), extra: { ...template.extra, minDeposit: (amount * BigInt(this.options.minDepositCalls)).toString() } };
      this.offers.set(price, offered);
    }
    return offered;
  }

  async admit(attempt: PaymentAttempt): Promise<Admission> {
    const { payload } = attempt;
    const shape = checkBatchSettlementPayload(payload.payload);
    if (!shape.ok) return answered(attempt.malformed(shape.message));
    // The shape was checked: a payload of one of the scheme's three types.
    const raw = payload.payload as unknown as VoucherPayload;
    if (shape.type === 'refund') return this.tracked(attempt, shape, undefined, () => this.refund(attempt, shape, raw));

    const { ledger } = this.options;
    const screened = ledger ? await ledger.screen(attempt, shape) : { keyed: undefined };
    if ('outcome' in screened) return answered(screened.outcome);
    const { keyed } = screened;
    return this.tracked(attempt, shape, keyed, () => this.verify(attempt, shape, raw, keyed));
  }

  /**
   * One request per channel at a time in this process, whichever path it takes: a second one is
   * answered `…_channel_busy` (a keyed retry: its first attempt's answer). The local voucher check
   * relies on it to reserve in memory on an embedded store (local-vouchers.ts).
   */
  private async tracked(attempt: PaymentAttempt, shape: CheckedBatchSettlementPayload, keyed: KeyedRequest | undefined, admit: () => Promise<Admission>): Promise<Admission> {
    const untrack = this.options.localVouchers ? this.options.localVouchers.track(shape.channelId) : () => undefined;
    if (!untrack) {
      const retried = keyed ? await this.options.ledger?.answer(keyed) : undefined;
      return answered(retried ?? await this.corrective(attempt, CHANNEL_BUSY, 'Channel is already processing a request'));
    }
    let admission: Admission;
    try {
      admission = await admit();
    } catch (error) {
      untrack();
      throw error;
    }
    if (admission.kind === 'answered') {
      untrack();
      return admission;
    }
    const { charge } = admission;
    return {
      kind: 'held',
      charge: {
        commit: async (result) => {
          try {
            return await charge.commit(result);
          } finally {
            untrack();
          }
        },
        release: async (reason) => {
          try {
            await charge.release(reason);
          } finally {
            untrack();
          }
        },
      },
    };
  }

  private async refund(attempt: PaymentAttempt, shape: CheckedBatchSettlementPayload, raw: VoucherPayload): Promise<Admission> {
    const refused = await this.options.localVouchers?.decide(raw, attempt.requirements);
    if (refused?.kind === 'refused') return answered(await this.corrective(attempt, refused.reason, refused.message));
    const { resourceServer, receipts, receiptTimeoutMs } = this.options;
    return answered(await servePayerRefund(attempt, shape.channelId, {
      resourceServer, receipts, receiptTimeoutMs, onRefund: this.onRefund, onRefundFailed: this.onRefundFailed,
      corrective: (a, reason, message) => this.corrective(a, reason, message),
      settle: (log, p, r) => this.settle(log, p, r),
    }));
  }

  private async verify(attempt: PaymentAttempt, shape: CheckedBatchSettlementPayload, raw: VoucherPayload, keyed: KeyedRequest | undefined): Promise<Admission> {
    const { payload, requirements } = attempt;
    const { resourceServer, ledger } = this.options;
    const decided = await this.options.localVouchers?.decide(raw, requirements);
    if (decided?.kind === 'refused') return answered(await this.corrective(attempt, decided.reason, decided.message));
    if (decided?.kind === 'reserved') return this.hold(attempt, shape, keyed, decided.reservation, 'local');
    let verified: Awaited<ReturnType<x402ResourceServer['verifyPayment']>>;
    try {
      verified = await resourceServer.verifyPayment(payload, requirements);
    } catch (error) {
      attempt.log.error({ err: error }, 'channel payment verification could not run');
      return answered(facilitatorUnavailable());
    }
    if (!verified.isValid) {
      const reason = verified.invalidReason ?? 'invalid_payment';
      // The same payment sent again while its first attempt runs: answered as that attempt's retry.
      const retried = keyed && reason === CHANNEL_BUSY ? await ledger?.answer(keyed) : undefined;
      if (retried) return answered(retried);
      if (await this.forgottenChannelOverdrawn(shape, reason)) {
        return answered(await this.corrective(attempt, CUMULATIVE_AMOUNT_MISMATCH, `the gateway holds no record of channel ${shape.channelId} (refunded, or never opened here): read its state from the chain and deposit again`));
      }
      return answered(await this.corrective(attempt, reason, verified.invalidMessage ?? 'the payment was not accepted'));
    }
    // The SDK serves a channel whose payer has started to withdraw until the withdrawal finalizes;
    // a voucher accepted then may never be claimed (the watcher claims once per poll). Refused here,
    // from the record the SDK read to verify (no second read), its reservation dropped.
    const record = this.options.serverScheme.readRequestContext(payload)?.channelSnapshot;
    if (record && record.withdrawRequestedAt > 0) {
      await this.charge(attempt, undefined, this.sdkReservation(attempt)).release(CHANNEL_WITHDRAWING);
      return answered(attempt.ask(`${CHANNEL_WITHDRAWING}: the payer started a withdrawal of channel ${shape.channelId}; it takes no more payments (open another channel, with another salt, or pay with exact)`));
    }
    return this.hold(attempt, shape, keyed, this.sdkReservation(attempt), 'sdk');
  }

  /**
   * A plain voucher over the balance of a channel the gateway holds no record of: the payer's view is
   * stale (its channel was refunded, by its own request elsewhere or for being idle). The SDK answers
   * `…_cumulative_exceeds_balance`, after which the official client is stuck with its old balance;
   * the corrective reason makes it read the channel from the chain and deposit again.
   */
  private async forgottenChannelOverdrawn(shape: CheckedBatchSettlementPayload, reason: string): Promise<boolean> {
    if (reason !== CUMULATIVE_EXCEEDS_BALANCE || shape.type !== 'voucher') return false;
    try {
      return (await this.options.serverScheme.getStorage().get(shape.channelId)) === undefined;
    } catch {
      return false;
    }
  }

  /** The call's ledger row (locked when keyed), then the charge held for the tool. */
  private async hold(attempt: PaymentAttempt, shape: CheckedBatchSettlementPayload, keyed: KeyedRequest | undefined, reservation: Reservation, check: 'local' | 'sdk'): Promise<Admission> {
    const { ledger } = this.options;
    const call = ledger ? await ledger.hold(attempt, shape, keyed) : undefined;
    if (call && 'outcome' in call) {
      await this.charge(attempt, undefined, reservation).release('ledger refused the call');
      return answered(call.outcome);
    }
    if (shape.type === 'voucher') this.onVoucherHeld?.(check);
    return { kind: 'held', charge: this.charge(attempt, call, reservation) };
  }

  private sdkReservation(attempt: PaymentAttempt): Reservation {
    const { payload, requirements } = attempt;
    return {
      settle: () => this.settle(attempt.log, payload, requirements),
      release: () => this.options.serverScheme.clearPendingRequest(payload),
    };
  }

  /**
   * A 402 with the scheme's reason. When the voucher's cumulative amount is not the one the server
   * expects, the SDK adds the channel's state to our offer (`enrichPaymentRequiredResponse`, run by
   * `createPaymentRequiredResponse`) so that the client can sign the right amount and retry.
   */
  private async corrective(attempt: PaymentAttempt, reason: string, message: string): Promise<GateOutcome> {
    // The official client resyncs from a corrective 402 only when `error` is the bare reason code, as
    // the SDK's own server writes it; every other refusal keeps our `<code>: <message>`.
    const asked = attempt.ask(RESYNC_REASONS.has(reason) ? reason : `${reason}: ${message}`);
    const { accepts, resource } = asked.paymentRequired;
    try {
      // The SDK's enrichment matches on the bare reason; only its `accepts` are taken from this answer.
      const enriched = await this.options.resourceServer.createPaymentRequiredResponse(accepts, resource, reason, undefined, undefined, attempt.payload);
      return { ...asked, paymentRequired: { ...asked.paymentRequired, accepts: enriched.accepts } };
    } catch (error) {
      attempt.log.warn({ err: error }, 'channel state could not be added to the 402');
      return asked;
    }
  }

  private charge(attempt: PaymentAttempt, call: ChannelCall | undefined, reservation: Reservation): HeldCharge {
    return {
      release: async (reason) => {
        try {
          await reservation.release();
        } catch (error) {
          // The reservation then lapses on its own after maxTimeoutSeconds (the channel is busy until then).
          attempt.log.error({ err: error, reason }, 'channel reservation could not be cleared');
        }
        await call?.release(reason);
      },
      commit: async (result) => {
        const settle = () => this.settleOrFail(attempt, reservation);
        const settlement = call ? await call.commit(result, settle) : await settle();
        if (settlement.success) return { kind: 'paid', result, settlement };
        attempt.log.warn({ tool: attempt.toolName, payer: settlement.payer, reason: settlement.errorReason, tx: settlement.transaction }, 'channel settlement failed; result withheld');
        const why = [settlement.errorReason ?? 'unknown', settlement.errorMessage].filter(Boolean).join(': ');
        const { paymentRequired } = attempt.ask(`Settlement failed: ${why}`);
        return { kind: 'settlement_failed', settlement, paymentRequired };
      },
    };
  }

  /** A local reservation's charge that throws (the store unreachable) fails as the SDK's settle does: nothing charged. */
  private async settleOrFail(attempt: PaymentAttempt, reservation: Reservation): Promise<SettleResponse> {
    try {
      return await reservation.settle();
    } catch (error) {
      attempt.log.error({ err: error }, 'channel charge could not be recorded');
      // Nothing was charged (the transaction rolled back); the channel is freed if the store answers again.
      await reservation.release().catch(() => undefined);
      return { success: false, errorReason: 'unexpected_settle_error', errorMessage: error instanceof Error ? error.message : String(error), transaction: '', network: attempt.requirements.network };
    }
  }

  /** settlePayment, with its thrown refusals (a hook's abort, a facilitator error) as failed responses. */
  private async settle(log: Logger, payload: PaymentPayload, requirements: PaymentRequirements): Promise<SettleResponse> {
    try {
      return await this.options.resourceServer.settlePayment(payload, requirements);
    } catch (error) {
      log.error({ err: error }, 'channel settlement threw');
      const refusal = error as { errorReason?: unknown; errorMessage?: unknown; transaction?: unknown };
      return {
        success: false,
        errorReason: typeof refusal.errorReason === 'string' ? refusal.errorReason : 'unexpected_settle_error',
        errorMessage: typeof refusal.errorMessage === 'string' ? refusal.errorMessage : error instanceof Error ? error.message : String(error),
        transaction: typeof refusal.transaction === 'string' ? refusal.transaction : '',
        network: requirements.network,
      };
    }
  }
}

async function buildRequirements(options: BatchSettlementSchemeOptions, price: string): Promise<PaymentRequirements> {
  const { terms } = options;
  const amount = usdcToAtomic(price);
  const [built] = await options.resourceServer.buildPaymentRequirements({
    scheme: BATCH_SETTLEMENT,
    network: terms.network.caip2,
    payTo: terms.payTo,
    // An explicit asset amount: money prices ("$0.01") resolve only for the SDK's default assets.
    price: {
      amount: amount.toString(),
      asset: terms.network.usdc.address,
      extra: { name: terms.network.usdc.name, version: terms.network.usdc.version, minDeposit: (amount * BigInt(options.minDepositCalls)).toString() },
    },
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
  });
  if (!built) throw new Error(`batch-settlement: the resource server built no requirements for ${price}`);
  return built;
}

const answered = (outcome: GateOutcome): Admission => ({ kind: 'answered', outcome });
