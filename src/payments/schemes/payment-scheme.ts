// A payment scheme as a part of the gate (the way @x402/core registers schemes): what it offers in a
// 402's `accepts`, how it takes a payment whose `accepted` is one of its offers from decoding through
// verification to a charge held for the call, and how that charge is committed once the tool has
// succeeded, or released when it has not. The gate keeps one order of things for every scheme:
// validate, ask, decode, match, admit (decode the scheme's payload, verify, lock), run, commit or
// release, answer.
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import type { ToolContext } from '../../catalog/tool.ts';
import type { Logger } from '../../log.ts';
import type { GateOutcome } from '../gate-outcome.ts';
import type { ResourceDescription } from '../requirements.ts';

export interface PaymentScheme {
  /** The x402 scheme name, as in `accepts[].scheme`. */
  readonly name: string;
  /** What a 402 offers for a tool at this price under this scheme (the same object each time). */
  requirements(price: string): PaymentRequirements;
  /** Takes a payment for one of this scheme's offers to a held charge, or answers the call itself. */
  admit(attempt: PaymentAttempt): Promise<Admission>;
}

/** One paid call as a scheme sees it: the input is valid and `payload.accepted` matched `requirements`. */
export interface PaymentAttempt {
  toolName: string;
  caller: ToolContext['caller'];
  resource: ResourceDescription;
  /** The tool reaches the outside world (MCP's openWorldHint): see GateCall. */
  reachesOutside: boolean;
  /** The validated input (defaults applied). */
  input: Record<string, unknown>;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  /** A refusal that asks for payment again (402), with `error` as `<code>: <explanation>`. */
  ask(error: string): Extract<GateOutcome, { kind: 'payment_required' }>;
  /** The scheme's payload is malformed (400, x402's invalid payment). */
  malformed(problem: string): GateOutcome;
  log: Logger;
}

export type Admission =
  /** The scheme answered the call itself: a refusal, or a retry answered from what was stored. */
  | { kind: 'answered'; outcome: GateOutcome }
  | { kind: 'held'; charge: HeldCharge };

/** A payment verified and locked for this call. The gate calls exactly one of these, once. */
export interface HeldCharge {
  /** The tool succeeded: collect the charge; `paid` (with the result) or why the result is withheld. */
  commit(result: unknown): Promise<GateOutcome>;
  /** The tool failed or did not run: nothing is charged; `reason` is kept with the payment. */
  release(reason: string): Promise<void>;
}
