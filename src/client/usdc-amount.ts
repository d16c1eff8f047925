// USDC amounts as people write them ("0.005") and as the chain counts them (atomic units, 6 decimals).
// The conversion is the gateway's own (payments/price.ts); what this adds is lenient reading of what
// a person types, with errors that name the flag or setting it came from.
import { atomicToUsdc, USDC_DECIMALS, usdcToAtomic } from '../payments/price.ts';

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** "0.005" -> 5000n. Refuses anything that is not a plain non-negative decimal with at most 6 places. */
export function parseUsdc(text: string, what = 'amount'): bigint {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new Error(`${what} must be a USDC amount such as 0.01 (got ${JSON.stringify(text)})`);
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  if (fraction.length > USDC_DECIMALS) throw new Error(`${what} has more than ${USDC_DECIMALS} decimal places (got ${text}): USDC counts in millionths`);
  // Canonical form for the shared conversion: "007.5" -> "7.5".
  return usdcToAtomic(fraction ? `${BigInt(whole)}.${fraction}` : `${BigInt(whole)}`);
}

/** 5000n -> "0.005" (no trailing zeros, at least one digit after a point only when needed). */
export const formatUsdc = atomicToUsdc;
