// The decimal arithmetic of calculate_math's financial types: decimal.js computing with 20 guard
// digits beyond the 64 significant digits it answers with, so that every figure is the exact value
// correctly rounded (ties away from zero) even after a subtraction cancels leading digits. Plain
// digits from 1e-20 to below 1e40, as the formula evaluator writes them.
import { Decimal as DecimalJs } from 'decimal.js';

export const PRECISION = 64;
const GUARD_DIGITS = 20;
export const Decimal = DecimalJs.clone({ precision: PRECISION + GUARD_DIGITS, rounding: DecimalJs.ROUND_HALF_UP, toExpNeg: -21, toExpPos: 40 });
export type Decimal = DecimalJs;

/** A computed value as the tool answers it: rounded to 64 significant digits. */
export const present = (value: Decimal): string => value.toSignificantDigits(PRECISION).toString();
