// The payment gate, shared by every face. In this order:
//   validate input (free) -> ask for payment -> verify -> lock the authorization in the ledger ->
//   run the tool -> settle on success (or release on failure) -> answer.
// A caller pays only for a result it receives; an authorization is used once.
import { decodePaymentSignatureHeader } from '@x402/core/http';
import { PaymentPayloadV2Schema } from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { InputIssue } from '../catalog/validate-input.ts';
import { validateInput } from '../catalog/validate-input.ts';
import type { PrecheckContext, ToolContext, ToolInput } from '../catalog/tool.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { Logger } from '../log.ts';
import type { CallMetrics } from './call-metrics.ts';
import { outcomeCode } from './call-metrics.ts';
import { parseEip3009Payload, serializeAuthorization } from './exact-evm-payload.ts';
import type { Eip3009Payload } from './exact-evm-payload.ts';
import { PAYMENT_IDENTIFIER, paymentIdentifierDeclaration, readPaymentIdentifier, requestFingerprint } from './idempotency/payment-identifier.ts';
import { provesRetry, signedForTerms } from './idempotency/retry-proof.ts';
import type { NonceState } from './idempotency/retry-proof.ts';
import { RetryWaiters } from './idempotency/retry-waiters.ts';
import type { RetrySlot, RetryWaiterLimits } from './idempotency/retry-waiters.ts';
import { storedSettlement } from './idempotency/stored-result.ts';
import type { Facilitator } from './facilitator/facilitator.ts';
import { SETTLEMENT_PENDING } from './facilitator/facilitator.ts';
import type { Settlement } from './settlement/settlement.ts';
import { CONTRACT_PAYERS_PAUSED } from './settlement/settlement.ts';
import type { PayerStanding } from './payer-standing.ts';
import { MAX_PAYMENT_BYTES, paymentTooLarge } from './payment-size.ts';
import type { PaymentLedger, PaymentState } from './ledger/payment-ledger.ts';
import type { PaymentTerms, ResourceDescription } from './requirements.ts';
import { matchAccepted, paymentRequired, requirementsFor } from './requirements.ts';
import type { ToolServices } from '../upstream/tool-services.ts';

export const DEFAULT_TOOL_TIMEOUT_MS = 15_000;

/** What a face hands the gate for one call. */
export interface GateCall {
  /** MCP name of the tool, recorded in the ledger. */
  toolName: string;
  price: string;
  input: ToolInput;
  handler: ((input: Record<string, unknown>, ctx: ToolContext) => Promise<unknown>) | undefined;
  precheck?: ((input: Record<string, unknown>, ctx: PrecheckContext) => void) | undefined;
  rawInput: unknown;
  /** The payment as it came: a base64 header value, or an object (MCP `_meta`). Undefined if none. */
  payment: unknown;
  resource: ResourceDescription;
  /** x402 extensions every PaymentRequired of this resource carries (e.g. bazaar discovery). */
  extensions?: Record<string, unknown>;
  caller: ToolContext['caller'];
  timeoutMs?: number;
  /** Aborted when the caller goes away. */
  signal?: AbortSignal;
  /** Which face the call came through, for the metrics. */
  face?: 'http' | 'mcp';
  /**
   * The tool reaches the outside world (MCP's openWorldHint: upstream providers, a browser): its
   * payment's nonce and balance are read from the chain before it runs, so a used, cancelled or
   * unfunded authorization never costs us that work.
   */
  reachesOutside?: boolean;
}

export type GateOutcome =
  | { kind: 'invalid_input'; issues: InputIssue[] }
  | { kind: 'not_implemented'; message: string }
  | { kind: 'payment_required'; paymentRequired: PaymentRequired }
  /**
   * The payment is not an x402 v2 exact payment at all (not base64 JSON, not a v2 payload, an
   * authorization of the wrong shape, padded past the size limit): HTTP answers 400, as x402's
   * transport table says of an invalid payment, with the PaymentRequired to start over.
   */
  | { kind: 'invalid_payment'; paymentRequired: PaymentRequired }
  | { kind: 'tool_failed'; status: number; code: string; message: string; details?: Readonly<Record<string, unknown>>; retryAfterSeconds?: number }
  | { kind: 'unavailable'; code: 'ledger_unavailable' | 'facilitator_unavailable'; message: string }
  | { kind: 'settlement_failed'; settlement: SettleResponse; paymentRequired: PaymentRequired }
  | { kind: 'conflict'; code: 'payment_identifier_conflict' | 'payment_identifier_in_progress' | 'payment_identifier_expired'; message: string }
  /** `replayed`: a retry carrying the payment-identifier of a settled payment, answered from the ledger. */
  | { kind: 'paid'; result: unknown; settlement: SettleResponse; replayed?: true };

export interface GateDependencies {
  facilitator: Facilitator;
  settlement: Settlement;
  ledger: PaymentLedger;
  terms: PaymentTerms;
  log: Logger;
  now?: () => Date;
  metrics?: CallMetrics;
  /** What handlers reach the outside world through. */
  services: Pick<ToolServices, 'upstream' | 'web'>;
  /** How long a retry waits for the first attempt of its payment-identifier to finish. */
  retryWaitMs?: number;
  /** How many retries may wait at once, per identifier and in total (retry-waiters.ts has the defaults). */
  retryWaiters?: Partial<RetryWaiterLimits>;
  /** This gateway instance, recorded with each call it runs (reconciliation after a crash). */
  instance?: string;
  /** Payers the chain refused: on probation or cooling down (payer-standing.ts). */
  standing?: PayerStanding;
}

/** A payment past verification, with what the rest of the gate needs of it. */
interface VerifiedPayment {
  input: Record<string, unknown>;
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  authorization: Eip3009Payload;
  keyed: { id: string; fingerprint: string } | undefined;
  accepts: PaymentRequirements[];
  extensions: Record<string, unknown>;
  ask(error: string): GateOutcome;
}

const DEFAULT_RETRY_WAIT_MS = 30_000;
/** Polling an attempt this instance does not run (another instance on a shared ledger): doubling up to the second. */
const RETRY_POLL_FIRST_MS = 200;
const RETRY_POLL_MAX_MS = 2_000;

const inFlightStates: readonly PaymentState[] = ['verified', 'running', 'settling'];

export class PaymentGate {
  private readonly now: () => Date;
  private readonly retryWaiters: RetryWaiters;

  constructor(private readonly deps: GateDependencies) {
    this.now = deps.now ?? (() => new Date());
    this.retryWaiters = new RetryWaiters(deps.retryWaiters);
  }

  /** The requirements a tool at this price is sold under: what a 402 offers. */
  requirements(price: string): PaymentRequirements[] {
    let offered = this.offers.get(price);
    if (!offered) {
      offered = [requirementsFor(price, this.deps.terms)];
      this.offers.set(price, offered);
    }
    return offered;
  }

  private readonly offers = new Map<string, PaymentRequirements[]>();
  /** Per resource (faces describe each route once): its extensions, and the answer to an unpaid call. */
  private readonly perResource = new WeakMap<object, { extensions: Record<string, unknown>; unpaid: Map<string, GateOutcome> }>();

  private resourceCache(call: GateCall) {
    let cached = this.perResource.get(call.resource);
    if (!cached) {
      cached = { extensions: { ...call.extensions, [PAYMENT_IDENTIFIER]: paymentIdentifierDeclaration }, unpaid: new Map() };
      this.perResource.set(call.resource, cached);
    }
    return cached;
  }

  private extensionsOf(call: GateCall): Record<string, unknown> {
    return this.resourceCache(call).extensions;
  }

  /** The same 402 for every unpaid call to a resource at a price: built once (faces may encode it once too). */
  private unpaid(call: GateCall): GateOutcome {
    const cached = this.resourceCache(call);
    let outcome = cached.unpaid.get(call.price);
    if (!outcome) {
      outcome = { kind: 'payment_required', paymentRequired: paymentRequired(call.resource, this.requirements(call.price), 'Payment required', cached.extensions) };
      cached.unpaid.set(call.price, outcome);
    }
    return outcome;
  }

  async handle(call: GateCall): Promise<GateOutcome> {
    const started = performance.now();
    const outcome = await this.decide(call);
    this.record(call, outcome, started);
    return outcome;
  }

  /**
   * An unpaid call with valid input, answered without the asynchronous path: its 402 (recorded like
   * any call). Undefined for anything else, which then takes `handle` (and is recorded there).
   */
  answerUnpaid(call: GateCall): GateOutcome | undefined {
    const started = performance.now();
    if (!isUnpaid(call.payment) || 'refusal' in this.screen(call)) return undefined;
    const outcome = this.unpaid(call);
    this.record(call, outcome, started);
    return outcome;
  }

  private record(call: GateCall, outcome: GateOutcome, started: number): void {
    const code = outcomeCode(outcome);
    this.deps.metrics?.record({
      tool: call.toolName, face: call.face ?? 'http', kind: outcome.kind, ...(code ? { code } : {}), price: call.price,
      at: this.now(), durationMs: performance.now() - started,
    });
  }

  /** What is decided before any payment: the input, whether the tool is built, its own precheck. */
  private screen(call: GateCall): { value: Record<string, unknown> } | { refusal: GateOutcome } {
    const verdict = validateInput(call.input, call.rawInput);
    if (!verdict.ok) return { refusal: { kind: 'invalid_input', issues: verdict.issues } };
    if (!call.handler) {
      return {
        refusal: {
          kind: 'not_implemented',
          message: `${call.toolName} is declared but not built yet. No payment was asked for and nothing was charged.`,
        },
      };
    }
    if (call.precheck) {
      try {
        call.precheck(verdict.value, { web: this.deps.services.web });
      } catch (error) {
        if (error instanceof ToolError) return { refusal: toolFailed(error) };
        throw error;
      }
    }
    return { value: verdict.value };
  }

  private async decide(call: GateCall): Promise<GateOutcome> {
    const accepts = this.requirements(call.price);
    const extensions = this.extensionsOf(call);
    const ask = (error: string): GateOutcome => ({
      kind: 'payment_required',
      paymentRequired: paymentRequired(call.resource, accepts, error, extensions),
    });
    const malformed = (problem: string): GateOutcome => ({
      kind: 'invalid_payment',
      paymentRequired: paymentRequired(call.resource, accepts, `invalid_payload: ${problem}`, extensions),
    });
    // Padding is refused before it costs us anything: parsing, verification, a byte of the ledger.
    if (!isUnpaid(call.payment) && paymentTooLarge(call.payment)) {
      return malformed(`the payment is larger than ${MAX_PAYMENT_BYTES} bytes; an x402 payment is a few hundred`);
    }
    const screened = this.screen(call);
    if ('refusal' in screened) return screened.refusal;
    const input = screened.value;
    if (isUnpaid(call.payment)) return this.unpaid(call);

    const decoded = decodePayment(call.payment);
    if (!decoded.ok) return malformed(decoded.message);
    const payload = decoded.payload;
    const match = matchAccepted(payload.accepted, accepts);
    if (!match.ok) return ask(`No matching payment requirements: ${match.mismatch}`);
    const requirements = match.requirements;

    const authorization = parseEip3009Payload(payload.payload);
    if (!authorization.ok) return malformed(authorization.message);
    const { from: payer } = authorization.value.authorization;
    const coolingDown = this.deps.standing?.refusal(payer);
    if (coolingDown) return ask(coolingDown);

    const identifier = readPaymentIdentifier(payload);
    if (identifier.kind === 'invalid') {
      return { kind: 'invalid_input', issues: [{ field: `payment.extensions.${PAYMENT_IDENTIFIER}`, message: identifier.message }] };
    }
    const keyed = identifier.kind === 'id'
      ? { id: identifier.id, fingerprint: requestFingerprint({ tool: call.toolName, input, payer, requirements }) }
      : undefined;
    if (keyed) {
      const earlier = await this.answerRetry(keyed, payload, authorization.value, requirements);
      if (earlier) return earlier;
    }

    // A replay is refused by the ledger's lock, after verification: with native signature recovery
    // and the cached balance view, verifying costs less than a ledger query would.

    let verification: Awaited<ReturnType<Facilitator['verify']>>;
    try {
      verification = await this.deps.facilitator.verify(payload, requirements, { client: call.caller.ip });
    } catch (error) {
      this.log(call).error({ err: error }, 'payment verification could not run');
      return facilitatorUnavailable();
    }
    if (!verification.isValid) {
      return ask(`${verification.invalidReason ?? 'invalid_payment'}: ${verification.invalidMessage ?? 'the payment was not accepted'}`);
    }

    // From here the facilitator holds this payment as in flight (its balance view): tell it once
    // how it ended, whichever way.
    const attemptEnded = keyed ? this.retryWaiters.attemptStarted(keyed.id) : undefined;
    let moved = false;
    try {
      const outcome = await this.lockRunSettle(call, { input, payload, requirements, authorization: authorization.value, keyed, accepts, extensions, ask });
      moved = (outcome.kind === 'paid' && !outcome.replayed) || (outcome.kind === 'settlement_failed' && outcome.settlement.errorReason === SETTLEMENT_PENDING);
      return outcome;
    } finally {
      this.deps.facilitator.paymentFinished?.(payer, BigInt(requirements.amount), moved);
      attemptEnded?.();
    }
  }

  private async lockRunSettle(call: GateCall, paid: VerifiedPayment): Promise<GateOutcome> {
    const standing = this.deps.standing;
    const payer = paid.authorization.authorization.from;
    const probation = standing?.onProbation(payer) ?? false;
    if (probation && !standing?.enterProbationRun(payer)) {
      return paid.ask('payer_on_probation: a payment of this payer was refused by the chain lately; its payments run one at a time, and one is running now. Nothing was charged.');
    }
    try {
      return await this.lockCheckRunSettle(call, paid, probation || call.reachesOutside === true);
    } finally {
      if (probation) standing?.leaveProbationRun(payer);
    }
  }

  private async lockCheckRunSettle(call: GateCall, paid: VerifiedPayment, checkChainFirst: boolean): Promise<GateOutcome> {
    const { payload, requirements, authorization, keyed, accepts, extensions, ask } = paid;
    const { from: payer, nonce } = authorization.authorization;
    const lock = await this.guardLedger(() =>
      this.deps.ledger.lock({
        payer, nonce, tool: call.toolName, amount: BigInt(requirements.amount), network: requirements.network, resource: call.resource.url,
        signedAuthorization: serializeAuthorization(authorization),
        ...(keyed ? { paymentIdentifier: keyed.id, requestFingerprint: keyed.fingerprint } : {}),
        ...(this.deps.instance ? { instance: this.deps.instance } : {}),
      }),
    );
    if (lock === 'unavailable') return ledgerUnavailable();
    if (!lock.locked && keyed) {
      // Another attempt with this identifier won the race (the same payment sent again while the
      // first still runs holds both the identifier and the authorization): answer as a retry of it.
      return (await this.answerRetry(keyed, payload, authorization, requirements)) ?? ask(replayMessage(lock.state));
    }
    if (!lock.locked) return ask(replayMessage(lock.state));

    if (checkChainFirst) {
      const stale = await this.checkOnChainNow(call, authorization);
      if (stale) {
        // A used or cancelled nonce can never settle: final. A balance short now may be topped up.
        const used = stale.reason === 'invalid_exact_evm_nonce_already_used';
        await this.guardLedger(() => this.deps.ledger.transition(lock.id, used ? 'failed' : 'released', { error: bounded(`${stale.reason}: ${stale.message}`) }));
        if (stale.reason === 'facilitator_unavailable') return facilitatorUnavailable();
        // No tool ran, so nothing to put the payer on probation for: only its cached balance is stale.
        this.deps.facilitator.payerRefused?.(payer);
        return ask(`${stale.reason}: ${stale.message}`);
      }
    }

    const run = await this.runHandler(call, paid.input);
    if (!run.ok) {
      await this.deps.ledger.transition(lock.id, 'released', { error: bounded(`${run.outcome.code}: ${run.outcome.message}`) });
      return run.outcome;
    }

    // The settlement records its own steps and outcome in the ledger. A result a retry may ask for
    // again is kept before any money moves.
    // Engines that write the hash ahead mark `settling` with it, in one write per batch.
    if (keyed || !this.deps.settlement.marksSettling) {
      await this.deps.ledger.transition(lock.id, 'settling', keyed ? { result: JSON.stringify(run.result ?? null) } : {});
    }
    const settlement = await this.deps.settlement.settle({ paymentId: lock.id, payload, requirements, authorization: authorization });
    if (settlement.success) {
      return { kind: 'paid', result: run.result, settlement: { ...settlement, payer: settlement.payer ?? payer } };
    }
    const pending = settlement.errorReason === SETTLEMENT_PENDING;
    this.noteRefusal(payer, settlement.errorReason);
    this.log(call).warn({ tool: call.toolName, payer, reason: settlement.errorReason, tx: settlement.transaction }, 'settlement failed; result withheld');
    return {
      kind: 'settlement_failed',
      settlement: { ...settlement, payer: settlement.payer ?? payer },
      paymentRequired: paymentRequired(
        call.resource,
        accepts,
        `Settlement failed: ${settlement.errorReason ?? 'unknown'}${pending ? ' (the outcome is being reconciled; do not pay again with a new authorization until it is)' : ''}`,
        extensions,
      ),
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

  private async checkOnChainNow(call: GateCall, authorization: Eip3009Payload): Promise<{ reason: string; message: string } | undefined> {
    if (!this.deps.facilitator.checkOnChainNow) return undefined;
    try {
      return await this.deps.facilitator.checkOnChainNow(authorization);
    } catch (error) {
      this.log(call).error({ err: error }, 'the payment could not be checked on chain');
      return { reason: 'facilitator_unavailable', message: 'the chain could not be reached' };
    }
  }

  /**
   * A payment whose identifier is already known: the stored result if the same caller asks for the
   * same thing and it was paid; a wait while the first attempt is still running; 409 otherwise.
   * Undefined: nothing live carries this identifier (never seen, or its attempt failed), or the
   * payment does not pay these terms or is not signed by its payer: go on (verification refuses it).
   * Checked before the ledger is read or anyone waits, and only so many wait at once.
   */
  private async answerRetry(
    keyed: { id: string; fingerprint: string },
    payload: PaymentPayload,
    authorization: Eip3009Payload,
    requirements: PaymentRequirements,
  ): Promise<GateOutcome | undefined> {
    const signature = await signedForTerms(authorization, requirements, this.deps.terms.network);
    if (signature === 'invalid') return undefined;
    const slot = this.retryWaiters.join(keyed.id);
    if (!slot) return inProgress(keyed.id, 'is being retried by too many requests at once');
    try {
      return await this.awaitFirstAttempt(keyed, payload, authorization, requirements, signature, slot);
    } finally {
      slot.leave();
    }
  }

  private async awaitFirstAttempt(
    keyed: { id: string; fingerprint: string },
    payload: PaymentPayload,
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
      const record = await this.guardLedger(() => this.deps.ledger.findByIdentifier(keyed.id));
      if (record === 'unavailable') return ledgerUnavailable();
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
            signature, nowSeconds: BigInt(Math.floor(this.now().getTime() / 1000)), ledger: this.deps.ledger, nonces: nonceState(this.deps.facilitator),
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
      if (!woken && record.instance === (this.deps.instance ?? null) && this.retryWaiters.runningHere(keyed.id)) {
        woken = await slot.wait(left);
      } else {
        woken = (await slot.wait(Math.min(pollMs, left))) || woken;
        pollMs = Math.min(pollMs * 2, RETRY_POLL_MAX_MS);
      }
    }
  }

  private async runHandler(
    call: GateCall,
    input: Record<string, unknown>,
  ): Promise<{ ok: true; result: unknown } | { ok: false; outcome: Extract<GateOutcome, { kind: 'tool_failed' }> }> {
    const handler = call.handler;
    if (!handler) throw new Error('runHandler called without a handler');
    const timeoutMs = call.timeoutMs ?? DEFAULT_TOOL_TIMEOUT_MS;
    const controller = new AbortController();
    const onCallerGone = () => controller.abort(new Error('the caller went away'));
    call.signal?.addEventListener('abort', onCallerGone, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new ToolError(504, 'tool_timeout', `${call.toolName} did not finish within ${timeoutMs} ms`);
        controller.abort(error);
        reject(error);
      }, timeoutMs);
    });
    const deadline = Date.now() + timeoutMs;
    const ctx: ToolContext = {
      signal: controller.signal, now: this.now, caller: call.caller, deadline,
      upstream: this.deps.services.upstream.forCall(deadline), web: this.deps.services.web,
    };
    try {
      const result = await Promise.race([handler(input, ctx), timedOut]);
      if (controller.signal.aborted) throw controller.signal.reason;
      return { ok: true, result };
    } catch (error) {
      if (error instanceof ToolError) return { ok: false, outcome: toolFailed(error) };
      this.log(call).error({ tool: call.toolName, err: error }, 'tool failed');
      return {
        ok: false,
        outcome: { kind: 'tool_failed', status: 500, code: 'tool_error', message: `${call.toolName} failed unexpectedly. You were not charged.` },
      };
    } finally {
      clearTimeout(timer);
      call.signal?.removeEventListener('abort', onCallerGone);
    }
  }

  /** The gate's logger, naming the call's request id. */
  private log(call: GateCall): Logger {
    return call.caller.requestId ? this.deps.log.child({ reqId: call.caller.requestId }) : this.deps.log;
  }

  private async guardLedger<T>(operation: () => Promise<T>): Promise<T | 'unavailable'> {
    try {
      return await operation();
    } catch (error) {
      this.deps.log.error({ err: error }, 'payment ledger unavailable');
      return 'unavailable';
    }
  }
}

function toolFailed(error: ToolError): Extract<GateOutcome, { kind: 'tool_failed' }> {
  return {
    kind: 'tool_failed', status: error.status, code: error.code, message: error.message,
    ...(error.details ? { details: error.details } : {}),
    ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
  };
}

function facilitatorUnavailable(): GateOutcome {
  return {
    kind: 'unavailable',
    code: 'facilitator_unavailable',
    message: 'The payment could not be verified right now (chain or facilitator unreachable); nothing was charged. Retry later.',
  };
}

/** Refusals that say nothing about the payer: ours, or not known yet. */
const notThePayers = new Set([SETTLEMENT_PENDING, 'unexpected_settle_error', 'facilitator_unavailable']);

/** An error kept in the ledger: a tool's or the chain's message, cut to a size a row can carry. */
const bounded = (text: string) => (text.length > 500 ? `${text.slice(0, 497)}...` : text);

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

function ledgerUnavailable(): GateOutcome {
  return { kind: 'unavailable', code: 'ledger_unavailable', message: 'The payment ledger is unavailable; nothing was charged. Retry later.' };
}

function replayMessage(state: PaymentState): string {
  if (inFlightStates.includes(state)) return 'authorization_in_use: this authorization is already being used by another request; sign a new one';
  if (state === 'pending') return 'authorization_in_use: this authorization\'s settlement is pending reconciliation; do not sign a new one until it is resolved';
  return 'invalid_exact_evm_nonce_already_used: this authorization was already used; sign a new one';
}

type Decoded = { ok: true; payload: PaymentPayload } | { ok: false; message: string };

/** A payment as a base64 header value (HTTP, MCP `_meta` as string) or as an object (MCP `_meta`). */
export function decodePayment(payment: unknown): Decoded {
  let candidate: unknown = payment;
  if (typeof payment === 'string') {
    try {
      candidate = decodePaymentSignatureHeader(payment.trim());
    } catch {
      return { ok: false, message: 'the payment is not base64-encoded JSON' };
    }
  }
  if (typeof candidate !== 'object' || candidate === null) return { ok: false, message: 'the payment is not a JSON object' };
  const version = (candidate as { x402Version?: unknown }).x402Version;
  if (version !== 2) return { ok: false, message: `x402Version ${JSON.stringify(version)} is not supported; this server speaks x402 version 2` };
  const parsed = PaymentPayloadV2Schema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return { ok: false, message: `${issue?.path.join('.') || 'payment'}: ${issue?.message ?? 'malformed'}` };
  }
  return { ok: true, payload: parsed.data as PaymentPayload };
}

const isUnpaid = (payment: unknown) => payment === undefined || payment === null || payment === '';
