// A channel payment in the payment ledger, from admission to commit (the rows themselves:
// ledger/channel-payments.ts). With a payment-identifier, before anything is verified, a retry is
// answered from the stored result (the shared loop of idempotency/retry-answers.ts): the same tool,
// input, payer, terms and the very same signed payload, or 409; after verification the call's row
// is locked `running`, holding the identifier while the tool runs. At commit the charge is announced,
// so that the channel update that records it writes its row in the same transaction.
import type { SettleResponse } from '@x402/core/types';
import type { Hex, TransactionReceipt } from 'viem';
import type { Logger } from '../../../log.ts';
import { ledgerUnavailable } from '../../gate-outcome.ts';
import type { GateOutcome } from '../../gate-outcome.ts';
import { PAYMENT_IDENTIFIER, readPaymentIdentifier, requestFingerprint } from '../../idempotency/payment-identifier.ts';
import { inProgress, RetryAnswers } from '../../idempotency/retry-answers.ts';
import type { KeyedRequest, RetryAnswersDependencies } from '../../idempotency/retry-answers.ts';
import type { ChannelPayments, RecordedCharge } from '../../ledger/channel-payments.ts';
import { CHANNEL_SCHEME } from '../../ledger/channel-payments.ts';
import type { PaymentLedger } from '../../ledger/payment-ledger.ts';
import type { PaymentAttempt } from '../payment-scheme.ts';
import type { CheckedBatchSettlementPayload } from './batch-settlement-payload.ts';

export interface ChannelLedgerDependencies extends RetryAnswersDependencies {
  ledger: PaymentLedger;
  payments: ChannelPayments;
  /** Reads a deposit's receipt for its gas (collection cost); without it deposits cost nothing in the reports. */
  receipts?: { getTransactionReceipt(args: { hash: Hex }): Promise<TransactionReceipt> };
}

/** A call past admission: what its commit and release do in the ledger. */
export interface ChannelCall {
  /** Runs `settle` with the charge announced; records a deposit's transaction; releases a keyed row the settlement refused. */
  commit(result: unknown, settle: () => Promise<SettleResponse>): Promise<SettleResponse>;
  release(reason: string): Promise<void>;
}

type Payload = CheckedBatchSettlementPayload;

export class ChannelLedger {
  private readonly retries: RetryAnswers;

  constructor(private readonly deps: ChannelLedgerDependencies) {
    this.retries = new RetryAnswers(deps);
  }

  /**
   * Before verification: the call's key (none without an identifier), or its answer: the stored
   * result of a retry, 409, or 400 for an identifier of the wrong shape.
   */
  async screen(attempt: PaymentAttempt, payload: Payload): Promise<{ keyed: KeyedRequest | undefined } | { outcome: GateOutcome }> {
    const identifier = readPaymentIdentifier(attempt.payload);
    if (identifier.kind === 'invalid') {
      return { outcome: { kind: 'invalid_input', issues: [{ field: `payment.extensions.${PAYMENT_IDENTIFIER}`, message: identifier.message }] } };
    }
    if (identifier.kind === 'none') return { keyed: undefined };
    const keyed = {
      id: identifier.id,
      fingerprint: requestFingerprint({ tool: attempt.toolName, input: attempt.input, payer: payload.payer, requirements: attempt.requirements, payment: attempt.payload.payload }),
    };
    const earlier = await this.answer(keyed);
    return earlier ? { outcome: earlier } : { keyed };
  }

  /** A retry of a keyed call: the fingerprint covers the signed payload, so a match is the proof. */
  answer(keyed: KeyedRequest): Promise<GateOutcome | undefined> {
    return this.retries.answer(keyed, async () => true);
  }

  /** After verification (the channel reserved for this call): its row, locked when it carries an identifier. */
  async hold(attempt: PaymentAttempt, payload: Payload, keyed: KeyedRequest | undefined): Promise<ChannelCall | { outcome: GateOutcome }> {
    if (!keyed) return this.call(attempt, payload, undefined, undefined);
    const ended = this.retries.attemptStarted(keyed.id);
    let lock: Awaited<ReturnType<PaymentLedger['lock']>>;
    try {
      lock = await this.deps.ledger.lock({
        payer: payload.payer, nonce: `${payload.channelId.toLowerCase()}:${payload.cumulative}`, tool: attempt.toolName,
        amount: BigInt(attempt.requirements.amount), network: attempt.requirements.network, resource: attempt.resource.url,
        paymentIdentifier: keyed.id, requestFingerprint: keyed.fingerprint, scheme: CHANNEL_SCHEME, channelId: payload.channelId, channelCumulative: payload.cumulative,
        ...(this.deps.instance ? { instance: this.deps.instance } : {}),
      });
    } catch (error) {
      ended();
      attempt.log.error({ err: error }, 'payment ledger unavailable');
      return { outcome: ledgerUnavailable() };
    }
    if (!lock.locked) {
      ended();
      // Another attempt holds the identifier (or this voucher): answered as its retry.
      return { outcome: (await this.answer(keyed)) ?? inProgress(keyed.id, `is held by another payment (${lock.state})`) };
    }
    return this.call(attempt, payload, keyed, { id: lock.id, ended });
  }

  private call(attempt: PaymentAttempt, payload: Payload, keyed: KeyedRequest | undefined, row: { id: number; ended: () => void } | undefined): ChannelCall {
    const { requirements } = attempt;
    const releaseRow = async (reason: string) => {
      if (!row) return;
      try {
        await this.deps.ledger.transition(row.id, 'released', { error: bounded(reason) });
      } catch (error) {
        // Released at the next start, or once abandoned, by ChannelPayments.releaseOrphaned.
        attempt.log.error({ err: error }, 'the channel call\'s ledger row could not be released');
      }
    };
    return {
      release: async (reason) => {
        try {
          await releaseRow(reason);
        } finally {
          row?.ended();
        }
      },
      commit: async (result, settle) => {
        const expectation = this.deps.payments.expect({
          channelId: payload.channelId, cumulative: payload.cumulative, tool: attempt.toolName, payer: payload.payer, network: requirements.network,
          resource: attempt.resource.url, amount: BigInt(requirements.amount),
          ...(keyed ? { result: JSON.stringify(result ?? null) } : {}),
          ...(row ? { paymentId: row.id } : {}),
          ...(payload.deposit !== undefined ? { deposit: payload.deposit } : {}),
          ...(this.deps.instance ? { instance: this.deps.instance } : {}),
        });
        try {
          const settlement = await settle();
          const recorded = expectation.recorded();
          if (!settlement.success) await releaseRow(`settlement failed: ${settlement.errorReason ?? 'unknown'}`);
          else if (!recorded) attempt.log.error({ channel: payload.channelId, cumulative: payload.cumulative.toString() }, 'a channel charge was recorded without its ledger row');
          else if (payload.deposit !== undefined) void this.depositDone(attempt.log, recorded, settlement, requirements.network, payload.deposit);
          return settlement;
        } finally {
          expectation.done();
          row?.ended();
        }
      },
    };
  }

  /** A deposit went through: its transaction on its rows, and what it cost, after the answer (bookkeeping only). */
  private async depositDone(log: Logger, recorded: RecordedCharge, settlement: SettleResponse, network: string, amount: bigint): Promise<void> {
    try {
      await this.deps.payments.completeDeposit(recorded, settlement);
      if (!this.deps.receipts || !settlement.transaction) return;
      const receipt = await this.deps.receipts.getTransactionReceipt({ hash: settlement.transaction as Hex });
      await this.deps.payments.recordCollection(network, [{
        step: 'deposit', hash: settlement.transaction, amount,
        gas: receipt.gasUsed, feeWei: receipt.gasUsed * (receipt.effectiveGasPrice ?? 0n),
      }]);
    } catch (error) {
      log.warn({ err: error, tx: settlement.transaction }, 'a deposit\'s transaction or cost could not be recorded');
    }
  }
}

const bounded = (text: string) => (text.length > 500 ? `${text.slice(0, 497)}...` : text);
