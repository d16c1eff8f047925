// USDC amounts as people write them ("0.005") and as the chain counts them (atomic units, 6 decimals).
export const USDC_DECIMALS = 6;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/** "0.005" -> 5000n. Refuses anything that is not a plain non-negative decimal with at most 6 places. */
export function parseUsdc(text: string, what = 'amount'): bigint {
  const match = DECIMAL.exec(text.trim());
  if (!match) throw new Error(`${what} must be a USDC amount such as 0.01 (got ${JSON.stringify(text)})`);
  const whole = match[1]!;
  const fraction = match[2] ?? '';
  if (fraction.length > USDC_DECIMALS) throw new Error(`${what} has more than ${USDC_DECIMALS} decimal places (got ${text}): USDC counts in millionths`);
  return BigInt(whole) * 10n ** BigInt(USDC_DECIMALS) + BigInt(fraction.padEnd(USDC_DECIMALS, '0'));
}

/** 5000n -> "0.005" (no trailing zeros, at least one digit after a point only when needed). */
export function formatUsdc(atomic: bigint): string {
  const negative = atomic < 0n;
  const value = negative ? -atomic : atomic;
  const unit = 10n ** BigInt(USDC_DECIMALS);
  const whole = value / unit;
  const fraction = (value % unit).toString().padStart(USDC_DECIMALS, '0').replace(/0+$/, '');
  return `${negative ? '-' : ''}${whole}${fraction ? `.${fraction}` : ''}`;
}
