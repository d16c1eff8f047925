// x402's payment-identifier for `exact` payments (the shared loop: idempotency/retry-answers.ts):
// a retry must carry an authorization for these terms signed by its payer, checked before the
// ledger is read or anyone waits, and prove to be the stored one or a fresh one (retry-proof.ts).
import type { PaymentRequirements } from '@x402/core/types';
import type { Eip3009Payload } from '../../exact-evm-payload.ts';
import type { Facilitator } from '../../facilitator/facilitator.ts';
import type { GateOutcome } from '../../gate-outcome.ts';
import { RetryAnswers as SharedRetryAnswers } from '../../idempotency/retry-answers.ts';
import type { KeyedRequest, RetryAnswersDependencies as SharedDependencies } from '../../idempotency/retry-answers.ts';
import { provesRetry, signedForTerms } from '../../idempotency/retry-proof.ts';
import type { NonceState } from '../../idempotency/retry-proof.ts';
import type { PaymentTerms } from '../../requirements.ts';

export type { KeyedRequest } from '../../idempotency/retry-answers.ts';

export interface RetryAnswersDependencies extends SharedDependencies {
  facilitator: Facilitator;
  terms: PaymentTerms;
  now: () => Date;
}

export class RetryAnswers {
  private readonly shared: SharedRetryAnswers;

  constructor(private readonly deps: RetryAnswersDependencies) {
    this.shared = new SharedRetryAnswers(deps);
  }

  attemptStarted(id: string): () => void {
    return this.shared.attemptStarted(id);
  }

  /**
   * As the shared answer; undefined also when the payment does not pay these terms or is not signed
   * by its payer: go on (verification refuses it).
   */
  async answer(keyed: KeyedRequest, authorization: Eip3009Payload, requirements: PaymentRequirements): Promise<GateOutcome | undefined> {
    const signature = await signedForTerms(authorization, requirements, this.deps.terms.network);
    if (signature === 'invalid') return undefined;
    return this.shared.answer(keyed, (record) =>
      provesRetry(record, authorization, requirements, {
        signature, nowSeconds: BigInt(Math.floor(this.deps.now().getTime() / 1000)), ledger: this.deps.ledger, nonces: nonceState(this.deps.facilitator),
      }),
    );
  }
}

/** The chain's nonce records, when the facilitator reads the chain itself. */
function nonceState(facilitator: Facilitator): NonceState | undefined {
  const read = facilitator.authorizationUsed?.bind(facilitator);
  return read ? { authorizationUsed: read } : undefined;
}
