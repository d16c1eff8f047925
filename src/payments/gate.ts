// The payment gate, shared by every face and every scheme. In this order:
//   validate input (free) -> ask for payment -> decode and match the payment to an offer -> the
//   offer's scheme admits it (verify, lock) -> run the tool -> commit the charge on success (or
//   release it on failure) -> answer.
// A caller pays only for a result it receives; a payment is used once. Schemes are parts
// (schemes/payment-scheme.ts): the gate knows none of them by heart.
import { decodePaymentSignatureHeader } from './header-codec.ts';
import { PaymentPayloadV2Schema } from '@x402/core/schemas';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { validateInput } from '../catalog/validate-input.ts';
import type { PrecheckContext, ToolContext, ToolInput } from '../catalog/tool.ts';
import { ToolError } from '../errors/tool-error.ts';
import type { Logger } from '../log.ts';
import type { CallMetrics } from './call-metrics.ts';
import { outcomeCode } from './call-metrics.ts';
import { toolFailed } from './gate-outcome.ts';
import type { GateOutcome, ToolFailed } from './gate-outcome.ts';
import { PAYMENT_IDENTIFIER, paymentIdentifierDeclaration } from './idempotency/payment-identifier.ts';
import { MAX_PAYMENT_BYTES, paymentTooLarge } from './payment-size.ts';
import type { ResourceDescription } from './requirements.ts';
import { matchAccepted, paymentRequired } from './requirements.ts';
import type { PaymentScheme } from './schemes/payment-scheme.ts';
import type { ToolServices } from '../upstream/tool-services.ts';

export type { GateOutcome } from './gate-outcome.ts';

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
   * scheme checks the payment against the chain before it runs (exact: the nonce and the balance),
   * so a used, cancelled or unfunded payment never costs us that work.
   */
  reachesOutside?: boolean;
}

export interface GateDependencies {
  /** The schemes offered, in the order a 402 lists them (the first is what clients that know one pick). */
  schemes: readonly PaymentScheme[];
  log: Logger;
  now?: () => Date;
  metrics?: CallMetrics;
  /** What handlers reach the outside world through. */
  services: Pick<ToolServices, 'upstream' | 'web'>;
}

export class PaymentGate {
  private readonly now: () => Date;
  private readonly schemes: ReadonlyMap<string, PaymentScheme>;

  constructor(private readonly deps: GateDependencies) {
    if (deps.schemes.length === 0) throw new Error('the gate needs at least one payment scheme');
    this.now = deps.now ?? (() => new Date());
    this.schemes = new Map(deps.schemes.map((scheme) => [scheme.name, scheme]));
  }

  /** The requirements a tool at this price is sold under: what a 402 offers, one entry per scheme. */
  requirements(price: string): PaymentRequirements[] {
    let offered = this.offers.get(price);
    if (!offered) {
      offered = this.deps.schemes.map((scheme) => scheme.requirements(price));
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
    const ask = (error: string) => ({ kind: 'payment_required' as const, paymentRequired: paymentRequired(call.resource, accepts, error, extensions) });
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
    const scheme = this.schemes.get(requirements.scheme);
    if (!scheme) throw new Error(`no scheme offers ${requirements.scheme}`);

    const admission = await scheme.admit({
      toolName: call.toolName, caller: call.caller, resource: call.resource, reachesOutside: call.reachesOutside === true,
      input, payload, requirements, ask, malformed, log: this.log(call),
    });
    if (admission.kind === 'answered') return admission.outcome;
    // The handler's own failures come back as outcomes: exactly one of release and commit runs.
    const run = await this.runHandler(call, input);
    if (!run.ok) {
      await admission.charge.release(`${run.outcome.code}: ${run.outcome.message}`);
      return run.outcome;
    }
    return admission.charge.commit(run.result);
  }

  private async runHandler(
    call: GateCall,
    input: Record<string, unknown>,
  ): Promise<{ ok: true; result: unknown } | { ok: false; outcome: ToolFailed }> {
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
