// x402's payment-identifier, for any scheme: a payment whose identifier is already in the ledger is
// answered from the stored result when it is the same request and proves to be its payer's, waited
// for while its first attempt runs, and refused (409) otherwise. Only so many wait at once. What
// proves a retry is the scheme's: exact's authorization (exact-retries.ts), a channel's very voucher.
import type { Logger } from '../../log.ts';
import { ledgerUnavailable } from '../gate-outcome.ts';
import type { GateOutcome } from '../gate-outcome.ts';
import type { PaymentLedger, PaymentRecord, PaymentState } from '../ledger/payment-ledger.ts';
import { RetryWaiters } from './retry-waiters.ts';
import type { RetrySlot, RetryWaiterLimits } from './retry-waiters.ts';
import { storedSettlement } from './stored-result.ts';

const DEFAULT_RETRY_WAIT_MS = 30_000;
/** Polling an attempt this instance does not run (another instance on a shared ledger): doubling up to the second. */
const RETRY_POLL_FIRST_MS = 200;
const RETRY_POLL_MAX_MS = 2_000;

/** A paid result a retry may be given: settled (exact, or a channel call collected), or a channel call charged. */
const answerable: readonly PaymentState[] = ['settled', 'received', 'claimed'];

export interface RetryAnswersDependencies {
  ledger: PaymentLedger;
  log: Logger;
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

/** Whether the retry's payment proves to be the one that paid for `record` (a throw: could not be checked). */
export type RetryProof = (record: PaymentRecord) => Promise<boolean>;

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
   * (never seen, or its attempt failed): go on.
   */
  async answer(keyed: KeyedRequest, proves: RetryProof): Promise<GateOutcome | undefined> {
    const slot = this.waiters.join(keyed.id);
    if (!slot) return inProgress(keyed.id, 'is being retried by too many requests at once');
    try {
      return await this.awaitFirstAttempt(keyed, proves, slot);
    } finally {
      slot.leave();
    }
  }

  private async awaitFirstAttempt(keyed: KeyedRequest, proves: RetryProof, slot: RetrySlot): Promise<GateOutcome | undefined> {
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
          proof = await proves(record);
        } catch (error) {
          this.deps.log.error({ err: error }, 'a retry\'s payment could not be checked');
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
      if (answerable.includes(record.state)) {
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

export function inProgress(id: string, why: string): GateOutcome {
  return {
    kind: 'conflict', code: 'payment_identifier_in_progress',
    message: `the payment with identifier ${id} ${why}; retry later with the same identifier. Nothing was charged for this request.`,
  };
}
