// The x402 payment requirements of each tool, derived from the catalogue. Deterministic: the
// paid retry must match what the 402 offered, so nothing here depends on time or chance.
import type { PaymentRequired, PaymentRequirements } from '@x402/core/types';
import type { Address } from 'viem';
import type { PaymentNetwork } from './networks.ts';
import { usdcToAtomic } from './price.ts';

export interface PaymentTerms {
  network: PaymentNetwork;
  payTo: Address;
  maxTimeoutSeconds: number;
}

export function requirementsFor(price: string, terms: PaymentTerms): PaymentRequirements {
  return {
    scheme: 'exact',
    network: terms.network.caip2,
    amount: usdcToAtomic(price).toString(),
    asset: terms.network.usdc.address,
    payTo: terms.payTo,
    maxTimeoutSeconds: terms.maxTimeoutSeconds,
    extra: { name: terms.network.usdc.name, version: terms.network.usdc.version },
  };
}

export interface ResourceDescription {
  url: string;
  description: string;
  mimeType: string;
}

export function paymentRequired(
  resource: ResourceDescription,
  accepts: PaymentRequirements[],
  error: string,
  extensions?: Record<string, unknown>,
): PaymentRequired {
  // `resource` last: the HTTP face names the URL as asked in it, and re-encodes only what follows
  // the URL for each query (faces/http/payment-required-answer.ts). Key order means nothing in JSON.
  return { x402Version: 2, error, accepts, ...(extensions ? { extensions } : {}), resource };
}

export type MatchResult = { ok: true; requirements: PaymentRequirements } | { ok: false; mismatch: string };

/**
 * Which of our requirements the client's `accepted` is: core fields equal (the time allowed
 * included: a client may not grant itself a longer one), and every key of our `extra` present with
 * the same value (a client may add keys, as @x402/core allows).
 */
export function matchAccepted(accepted: PaymentRequirements, offered: readonly PaymentRequirements[]): MatchResult {
  let closest: string | undefined;
  for (const ours of offered) {
    const difference = firstDifference(accepted, ours);
    if (!difference) return { ok: true, requirements: ours };
    // The offer of the payment's own scheme says what is wrong with it; another scheme's would say only "scheme".
    if (closest === undefined || ours.scheme === accepted.scheme) closest = difference;
  }
  return { ok: false, mismatch: closest ?? 'no requirements offered' };
}

function firstDifference(accepted: PaymentRequirements, ours: PaymentRequirements): string | undefined {
  const fields = ['scheme', 'network', 'amount', 'asset', 'payTo', 'maxTimeoutSeconds'] as const;
  for (const field of fields) {
    const theirs = String(accepted[field] ?? '');
    const mine = String(ours[field]);
    const equal = field === 'asset' || field === 'payTo' ? theirs.toLowerCase() === mine.toLowerCase() : theirs === mine;
    if (!equal) return `accepted.${field} is "${theirs}", this resource requires "${mine}"`;
  }
  for (const [key, value] of Object.entries(ours.extra ?? {})) {
    if (accepted.extra?.[key] !== value) return `accepted.extra.${key} is "${String(accepted.extra?.[key])}", this resource requires "${String(value)}"`;
  }
  return undefined;
}
