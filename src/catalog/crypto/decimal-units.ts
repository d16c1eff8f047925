// Exact conversion between decimal strings and integer amounts of an atomic unit (wei, USDC's
// micro-units): digits are moved, never rounded, and no floating-point number is ever made.

/** Enough for any uint256 amount (2^256 - 1 has 78 digits). */
export const MAX_INTEGER_DIGITS = 78;

const plainDecimal = /^[0-9]+(?:\.[0-9]+)?$/;
const exponentNotation = /^[-+]?(?:[0-9]+\.?[0-9]*|\.[0-9]+)[eE][-+]?[0-9]+$/;

/** Why `value` is not a plain non-negative decimal, in words for the caller; undefined when it is one. */
export function decimalProblem(value: string): string | undefined {
  if (plainDecimal.test(value)) {
    const integerDigits = value.split('.')[0]!.replace(/^0+/, '').length;
    return integerDigits > MAX_INTEGER_DIGITS
      ? `at most ${MAX_INTEGER_DIGITS} digits before the decimal point (leading zeros aside); got ${integerDigits}`
      : undefined;
  }
  if (value.startsWith('-')) return 'amounts cannot be negative: expected a decimal number of 0 or more, such as "1.5"';
  if (exponentNotation.test(value)) return `exponent notation ("${value}") is not accepted: write the digits out, e.g. "1000000000000000000" for 1e18`;
  return 'expected a non-negative decimal number made of digits with at most one ".", such as "1.5" or "1000000000000000000" (no sign, exponent, spaces or thousands separators)';
}

/** Decimal places that carry value: "1.50" has 1, "2.000" has 0. `value` must be a plain decimal. */
export function significantFractionDigits(value: string): number {
  const fraction = value.split('.')[1] ?? '';
  return fraction.replace(/0+$/, '').length;
}

/** "1.5" with 6 decimals is 1500000n. Throws a RangeError rather than drop digits that do not fit. */
export function toAtomic(value: string, decimals: number): bigint {
  if (!plainDecimal.test(value)) throw new RangeError(`"${value}" is not a plain non-negative decimal`);
  if (significantFractionDigits(value) > decimals) {
    throw new RangeError(`"${value}" has more than ${decimals} significant decimal places`);
  }
  const [integer = '0', fraction = ''] = value.split('.');
  return BigInt(integer + fraction.slice(0, decimals).padEnd(decimals, '0'));
}

/** 1500000n with 6 decimals is "1.5": no trailing zeros, no trailing point, "0" for zero. */
export function fromAtomic(atomic: bigint, decimals: number): string {
  if (atomic < 0n) throw new RangeError('amounts cannot be negative');
  const digits = atomic.toString().padStart(decimals + 1, '0');
  const integer = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  return fraction ? `${integer}.${fraction}` : integer;
}
