// x402's payment-identifier for `exact` payments: a payment whose identifier is already known is
// answered from the ledger when it proves to be its payer's, waited for while its first attempt
// runs, and refused (409) otherwise. Checked before the ledger is read or anyone waits, and only so
// many wait at once.
import type { PaymentRequirements } from '@x402/core/types';
import type { Logger } from '../../../log.ts';
import type { Eip3009Payload } from '../../exact-evm-payload.ts';
import type { Facilitator } from '../../facilitator/facilitator.ts';
import { ledgerUnavailable } from '../../gate-outcome.ts';
import type { GateOutcome } from '../../gate-outcome.ts';
import { provesRetry, signedForTerms } from '../../idempotency/retry-proof.ts';
import type { NonceState } from '../../idempotency/retry-proof.ts';
import { RetryWaiters } from '../../idempotency/retry-waiters.ts';
import type { RetrySlot, RetryWaiterLimits } from '../../idempotency/retry-waiters.ts';
import { storedSettlement } from '../../idempotency/stored-result.ts';
import type { PaymentLedger } from '../../ledger/payment-ledger.ts';
import type { PaymentTerms } from '../../requirements.ts';

const DEFAULT_RETRY_WAIT_MS = 30_000;
/** Polling an attempt this instance does not run (another instance on a shared ledger): doubling up to the second. */
const RETRY_POLL_FIRST_MS = 200;
const RETRY_POLL_MAX_MS = 2_000;

export interface RetryAnswersDependencies {
  ledger: PaymentLedger;
  facilitator: Facilitator;
  terms: PaymentTerms;
  log: Logger;
  now: () => Date;
  /** How long a retry waits for the first attempt of its payment-identifier to finish. */
  retryWaitMs?: number;
  /** How many retries may wait at once, per identifier and in total (retry-waiters.ts has the defaults). */
  retryWaiters?: Partial<RetryWaiterLimits>;
  /** This gateway instance, recorded with each call it runs. */
  instance?: string;
}

export interface KeyedRequest {
  id: string;
  fingerprint: string;
}

export class RetryAnswers {
  private readonly waiters: RetryWaiters;

  constructor(private readonly deps: RetryAnswersDependencies) {
    this.waiters = new RetryWaiters(deps.retryWaiters);
  }

  /** The first attempt of this identifier starts here: its waiters are woken when the returned function is called. */
  attemptStarted(id: string): () => void {
    return this.waiters.attemptStarted(id);
  }

  /**
   * The stored result if the same caller asks for the same thing and it was paid; a wait while the
   * first attempt is still running; 409 otherwise. Undefined: nothing live carries this identifier
   * (never seen, or its attempt failed), or the payment does not pay these terms or is not signed
   * by its payer: go on (verification refuses it).
   */
  async answer(keyed: KeyedRequest, authorization: Eip3009Payload, requirements: PaymentRequirements): Promise<GateOutcome | undefined> {
    const signature = await signedForTerms(authorization, requirements, this.deps.terms.network);
    if (signature === 'invalid') return undefined;
    const slot = this.waiters.join(keyed.id);
    if (!slot) return inProgress(keyed.id, 'is being retried by too many requests at once');
    try {
      return await this.awaitFirstAttempt(keyed, authorization, requirements, signature, slot);
    } finally {
      slot.leave();
    }
  }

  private async awaitFirstAttempt(
    keyed: KeyedRequest,
    authorization: Eip3009Payload,
    requirements: PaymentRequirements,
    signature: 'signed' | 'unchecked',
    slot: RetrySlot,
  ): Promise<GateOutcome | undefined> {
    const deadline = Date.now() + (this.deps.retryWaitMs ?? DEFAULT_RETRY_WAIT_MS);
    let proven = false;
    let woken = false;
    let pollMs = RETRY_POLL_FIRST_MS;
    for (;;) {
      let record: Awaited<ReturnType<PaymentLedger['findByIdentifier']>>;
      try {
        record = await this.deps.ledger.findByIdentifier(keyed.id);
      } catch (error) {
        this.deps.log.error({ err: error }, 'payment ledger unavailable');
        return ledgerUnavailable();
      }
      if (!record) return undefined;
      if (record.requestFingerprint !== keyed.fingerprint) {
        return {
          kind: 'conflict', code: 'payment_identifier_conflict',
          message: `payment identifier ${keyed.id} was already used for a different payment or input; use a new identifier for a new request. Nothing was charged.`,
        };
      }
      if (!proven) {
        let proof: boolean;
        try {
          proof = await provesRetry(record, authorization, requirements, {
            signature, nowSeconds: BigInt(Math.floor(this.deps.now().getTime() / 1000)), ledger: this.deps.ledger, nonces: nonceState(this.deps.facilitator),
          });
        } catch (error) {
          this.deps.log.error({ err: error }, 'a retry\'s authorization could not be checked');
          return { kind: 'unavailable', code: 'facilitator_unavailable', message: 'The payment could not be checked right now (ledger or chain unreachable); nothing was charged. Retry later.' };
        }
        if (!proof) {
          return {
            kind: 'conflict', code: 'payment_identifier_conflict',
            message: `payment identifier ${keyed.id} belongs to a payment this authorization does not prove to be yours: send the very authorization you first sent, or a fresh one for the same terms. Nothing was charged.`,
          };
        }
        proven = true;
      }
      if (record.state === 'settled') {
        if (record.result === null) {
          return {
            kind: 'conflict', code: 'payment_identifier_expired',
            message: `the result paid for with identifier ${keyed.id} is no longer kept; use a new identifier. Nothing was charged.`,
          };
        }
        return { kind: 'paid', result: JSON.parse(record.result) as unknown, settlement: storedSettlement(record), replayed: true };
      }
      const left = deadline - Date.now();
      if (left <= 0) return inProgress(keyed.id, `is still ${record.state}`);
      // This instance's own attempt wakes its waiters when it ends; anything else is polled, backing off.
      if (!woken && record.instance === (this.deps.instance ?? null) && this.waiters.runningHere(keyed.id)) {
        woken = await slot.wait(left);
      } else {
        woken = (await slot.wait(Math.min(pollMs, left))) || woken;
        pollMs = Math.min(pollMs * 2, RETRY_POLL_MAX_MS);
      }
    }
  }
}

function inProgress(id: string, why: string): GateOutcome {
  return {
    kind: 'conflict', code: 'payment_identifier_in_progress',
    message: `the payment with identifier ${id} ${why}; retry later with the same identifier. Nothing was charged for this request.`,
  };
}

/** The chain's nonce records, when the facilitator reads the chain itself. */
function nonceState(facilitator: Facilitator): NonceState | undefined {
  const read = facilitator.authorizationUsed?.bind(facilitator);
  return read ? { authorizationUsed: read } : undefined;
}
