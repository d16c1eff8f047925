// The x402 `payment-identifier` extension: a client-chosen id that makes a paid request safe to
// retry. Declared in every 402; read from the payment. What a retry must match to get the stored
// result is the request's fingerprint: the tool, its validated input, the payer and the terms paid.
import { createHash } from 'node:crypto';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { declarePaymentIdentifierExtension, PAYMENT_IDENTIFIER, validatePaymentIdentifier } from '@x402/extensions/payment-identifier';

export { PAYMENT_IDENTIFIER };

/** Optional: a payment without an id is served as always, only without the retry guarantee. */
export const paymentIdentifierDeclaration = declarePaymentIdentifierExtension(false);

export type IdentifierReading = { kind: 'none' } | { kind: 'invalid'; message: string } | { kind: 'id'; id: string };

export function readPaymentIdentifier(payload: PaymentPayload): IdentifierReading {
  const extension = payload.extensions?.[PAYMENT_IDENTIFIER];
  if (extension === undefined) return { kind: 'none' };
  const info = (extension as { info?: { id?: unknown } } | null)?.info;
  // The client echoed our declaration without adding an id: nothing to key on.
  if (info && typeof info === 'object' && info.id === undefined) return { kind: 'none' };
  // Without the `schema` the client echoed: the library compiles any schema it is given, afresh on
  // every call (~20 ms of CPU), before any payment is verified. Ours is known; theirs is not used.
  const validation = validatePaymentIdentifier({ info });
  if (!validation.valid) {
    return { kind: 'invalid', message: `expected { info: { id: 16-128 letters, digits, "-" or "_" } }: ${(validation.errors ?? ['malformed']).join('; ')}` };
  }
  return { kind: 'id', id: String(info?.id) };
}

/** JSON with object keys sorted at every depth: equal values, equal text. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * `payment`: the scheme's signed payload, when only the very same one may be answered from the
 * stored result (channels: a voucher is the proof, and another voucher is another payment).
 */
export function requestFingerprint(request: { tool: string; input: unknown; payer: string; requirements: PaymentRequirements; payment?: unknown }): string {
  const { scheme, network, amount, asset, payTo } = request.requirements;
  const text = canonicalJson({
    tool: request.tool, input: request.input, payer: request.payer.toLowerCase(), terms: { scheme, network, amount, asset, payTo: payTo.toLowerCase() }, payment: request.payment,
  });
  return createHash('sha256').update(text).digest('hex');
}
