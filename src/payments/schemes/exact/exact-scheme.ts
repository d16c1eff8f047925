// x402's `exact` scheme on EVM: one EIP-3009 transferWithAuthorization of USDC per call. A payment
// is decoded, checked against the payer's standing, answered from the ledger if it is a retry,
// verified by the facilitator, locked in the ledger by (payer, nonce) so an authorization is used
// once, read from the chain first when the tool reaches outside, and settled after the tool
// succeeded (or released when it did not).
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { Logger } from '../../../log.ts';
import { parseEip3009Payload, serializeAuthorization } from '../../exact-evm-payload.ts';
import type { Eip3009Payload } from '../../exact-evm-payload.ts';
import type { Facilitator } from '../../facilitator/facilitator.ts';
import { SETTLEMENT_PENDING } from '../../facilitator/facilitator.ts';
import { facilitatorUnavailable, ledgerUnavailable } from '../../gate-outcome.ts';
import type { GateOutcome } from '../../gate-outcome.ts';
import { PAYMENT_IDENTIFIER, readPaymentIdentifier, requestFingerprint } from '../../idempotency/payment-identifier.ts';
import type { PaymentLedger, PaymentState } from '../../ledger/payment-ledger.ts';
import type { PayerStanding } from '../../payer-standing.ts';
import { requirementsFor } from '../../requirements.ts';
import type { PaymentTerms } from '../../requirements.ts';
import type { Settlement } from '../../settlement/settlement.ts';
import { CONTRACT_PAYERS_PAUSED } from '../../settlement/settlement.ts';
import type { Admission, HeldCharge, PaymentAttempt, PaymentScheme } from '../payment-scheme.ts';
import { RetryAnswers } from './exact-retries.ts';
import type { KeyedRequest, RetryAnswersDependencies } from './exact-retries.ts';

export interface ExactSchemeDependencies extends RetryAnswersDependencies {
  facilitator: Facilitator;
  settlement: Settlement;
  ledger: PaymentLedger;
  terms: PaymentTerms;
  log: Logger;
  /** Payers the chain refused: on probation or cooling down (payer-standing.ts). */
  standing?: PayerStanding;
}

const inFlightStates: readonly PaymentState[] = ['verified', 'running', 'settling'];

/** A payment past verification, with what the rest of its admission and its charge need. */
interface VerifiedPayment {
  attempt: PaymentAttempt;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  authorization: Eip3009Payload;
  keyed: KeyedRequest | undefined;
}

export class ExactScheme implements PaymentScheme {
  readonly name = 'exact';
  private readonly offers = new Map<string, PaymentRequirements>();
  private readonly retries: RetryAnswers;

  constructor(private readonly deps: ExactSchemeDependencies) {
    this.retries = new RetryAnswers(deps);
  }

  requirements(price: string): PaymentRequirements {
    let offered = this.offers.get(price);
    if (!offered) {
      offered = requirementsFor(price, this.deps.terms);
      this.offers.set(price, offered);
    }
    return offered;
  }

  async admit(attempt: PaymentAttempt): Promise<Admission> {
    const { payload, requirements, ask } = attempt;
    const authorization = parseEip3009Payload(payload.payload);
    if (!authorization.ok) return answered(attempt.malformed(authorization.message));
    const { from: payer } = authorization.value.authorization;
    const coolingDown = this.deps.standing?.refusal(payer);
    if (coolingDown) return answered(ask(coolingDown));

    const identifier = readPaymentIdentifier(payload);
    if (identifier.kind === 'invalid') {
      return answered({ kind: 'invalid_input', issues: [{ field: `payment.extensions.${PAYMENT_IDENTIFIER}`, message: identifier.message }] });
    }
    const keyed = identifier.kind === 'id'
      ? { id: identifier.id, fingerprint: requestFingerprint({ tool: attempt.toolName, input: attempt.input, payer, requirements }) }
      : undefined;
    if (keyed) {
      const earlier = await this.retries.answer(keyed, authorization.value, requirements);
      if (earlier) return answered(earlier);
    }

    // A replay is refused by the ledger's lock, after verification: with native signature recovery
    // and the cached balance view, verifying costs less than a ledger query would.
    let verification: Awaited<ReturnType<Facilitator['verify']>>;
    try {
      verification = await this.deps.facilitator.verify(payload, requirements, { client: attempt.caller.ip });
    } catch (error) {
      attempt.log.error({ err: error }, 'payment verification could not run');
      return answered(facilitatorUnavailable());
    }
    if (!verification.isValid) {
      return answered(ask(`${verification.invalidReason ?? 'invalid_payment'}: ${verification.invalidMessage ?? 'the payment was not accepted'}`));
    }
    return this.lock({ attempt, payload, requirements, authorization: authorization.value, keyed });
  }

  /**
   * From verification on, the facilitator holds this payment as in flight (its balance view), a
   * retry of its identifier may wait for it, and a payer on probation runs one payment at a time:
   * each is told once how the payment ended, whichever way.
   */
  private async lock(paid: VerifiedPayment): Promise<Admission> {
    const { attempt, requirements, authorization, keyed } = paid;
    const payer = authorization.authorization.from;
    const standing = this.deps.standing;
    const attemptEnded = keyed ? this.retries.attemptStarted(keyed.id) : undefined;
    const probation = standing?.onProbation(payer) ?? false;
    let probationRun = false;
    let ended = false;
    const end = (moved: boolean) => {
      if (ended) return;
      ended = true;
      if (probationRun) standing?.leaveProbationRun(payer);
      this.deps.facilitator.paymentFinished?.(payer, BigInt(requirements.amount), moved);
      attemptEnded?.();
    };
    try {
      if (probation && !standing?.enterProbationRun(payer)) {
        end(false);
        return answered(attempt.ask('payer_on_probation: a payment of this payer was refused by the chain lately; its payments run one at a time, and one is running now. Nothing was charged.'));
      }
      probationRun = probation;
      const admission = await this.lockAndCheck(paid, probation || attempt.reachesOutside, end);
      if (admission.kind === 'answered') end(false);
      return admission;
    } catch (error) {
      end(false);
      throw error;
    }
  }

  private async lockAndCheck(paid: VerifiedPayment, checkChainFirst: boolean, end: (moved: boolean) => void): Promise<Admission> {
    const { attempt, requirements, authorization, keyed } = paid;
    const { ask } = attempt;
    const { from: payer, nonce } = authorization.authorization;
    const lock = await this.guardLedger(attempt.log, () =>
      this.deps.ledger.lock({
        payer, nonce, tool: attempt.toolName, amount: BigInt(requirements.amount), network: requirements.network, resource: attempt.resource.url,
        signedAuthorization: serializeAuthorization(authorization),
        ...(keyed ? { paymentIdentifier: keyed.id, requestFingerprint: keyed.fingerprint } : {}),
        ...(this.deps.instance ? { instance: this.deps.instance } : {}),
      }),
    );
    if (lock === 'unavailable') return answered(ledgerUnavailable());
    if (!lock.locked && keyed) {
      // Another attempt with this identifier won the race (the same payment sent again while the
      // first still runs holds both the identifier and the authorization): answer as a retry of it.
      return answered((await this.retries.answer(keyed, authorization, requirements)) ?? ask(replayMessage(lock.state)));
    }
    if (!lock.locked) return answered(ask(replayMessage(lock.state)));

    if (checkChainFirst) {
      const stale = await this.checkOnChainNow(attempt.log, authorization);
      if (stale) {
        // A used or cancelled nonce can never settle: final. A balance short now may be topped up.
        const used = stale.reason === 'invalid_exact_evm_nonce_already_used';
        await this.guardLedger(attempt.log, () => this.deps.ledger.transition(lock.id, used ? 'failed' : 'released', { error: bounded(`${stale.reason}: ${stale.message}`) }));
        if (stale.reason === 'facilitator_unavailable') return answered(facilitatorUnavailable());
        // No tool ran, so nothing to put the payer on probation for: only its cached balance is stale.
        this.deps.facilitator.payerRefused?.(payer);
        return answered(ask(`${stale.reason}: ${stale.message}`));
      }
    }
    return { kind: 'held', charge: this.charge(paid, lock.id, end) };
  }

  private charge(paid: VerifiedPayment, paymentId: number, end: (moved: boolean) => void): HeldCharge {
    const { attempt, payload, requirements, authorization, keyed } = paid;
    const payer = authorization.authorization.from;
    return {
      release: async (reason) => {
        try {
          await this.deps.ledger.transition(paymentId, 'released', { error: bounded(reason) });
        } finally {
          end(false);
        }
      },
      commit: async (result) => {
        let moved = false;
        try {
          // The settlement records its own steps and outcome in the ledger. A result a retry may ask
          // for again is kept before any money moves. Engines that write the hash ahead mark
          // `settling` with it, in one write per batch.
          if (keyed || !this.deps.settlement.marksSettling) {
            await this.deps.ledger.transition(paymentId, 'settling', keyed ? { result: JSON.stringify(result ?? null) } : {});
          }
          const settlement = await this.deps.settlement.settle({ paymentId, payload, requirements, authorization });
          if (settlement.success) {
            moved = true;
            return { kind: 'paid', result, settlement: { ...settlement, payer: settlement.payer ?? payer } };
          }
          const pending = settlement.errorReason === SETTLEMENT_PENDING;
          moved = pending;
          this.noteRefusal(payer, settlement.errorReason);
          attempt.log.warn({ tool: attempt.toolName, payer, reason: settlement.errorReason, tx: settlement.transaction }, 'settlement failed; result withheld');
          const { paymentRequired } = attempt.ask(`Settlement failed: ${settlement.errorReason ?? 'unknown'}${pending ? ' (the outcome is being reconciled; do not pay again with a new authorization until it is)' : ''}`);
          return { kind: 'settlement_failed', settlement: { ...settlement, payer: settlement.payer ?? payer }, paymentRequired };
        } finally {
          end(moved);
        }
      },
    };
  }

  /** What a refusal of the chain says about the payer (payer-standing.ts). */
  private noteRefusal(payer: string, reason: string | undefined): void {
    const standing = this.deps.standing;
    if (!standing || reason === undefined || notThePayers.has(reason)) return;
    if (reason === CONTRACT_PAYERS_PAUSED) standing.coolDown(payer);
    else if (reason === 'invalid_exact_evm_transaction_failed') standing.failedOnChain(payer);
    else standing.refusedByChain(payer);
    this.deps.facilitator.payerRefused?.(payer);
  }

  private async checkOnChainNow(log: Logger, authorization: Eip3009Payload): Promise<{ reason: string; message: string } | undefined> {
    if (!this.deps.facilitator.checkOnChainNow) return undefined;
    try {
      return await this.deps.facilitator.checkOnChainNow(authorization);
    } catch (error) {
      log.error({ err: error }, 'the payment could not be checked on chain');
      return { reason: 'facilitator_unavailable', message: 'the chain could not be reached' };
    }
  }

  private async guardLedger<T>(log: Logger, operation: () => Promise<T>): Promise<T | 'unavailable'> {
    try {
      return await operation();
    } catch (error) {
      log.error({ err: error }, 'payment ledger unavailable');
      return 'unavailable';
    }
  }
}

const answered = (outcome: GateOutcome): Admission => ({ kind: 'answered', outcome });

/** Refusals that say nothing about the payer: ours, or not known yet. */
const notThePayers = new Set([SETTLEMENT_PENDING, 'unexpected_settle_error', 'facilitator_unavailable']);

/** An error kept in the ledger: a tool's or the chain's message, cut to a size a row can carry. */
const bounded = (text: string) => (text.length > 500 ? `${text.slice(0, 497)}...` : text);

function replayMessage(state: PaymentState): string {
  if (inFlightStates.includes(state)) return 'authorization_in_use: this authorization is already being used by another request; sign a new one';
  if (state === 'pending') return 'authorization_in_use: this authorization\'s settlement is pending reconciliation; do not sign a new one until it is resolved';
  return 'invalid_exact_evm_nonce_already_used: this authorization was already used; sign a new one';
}
