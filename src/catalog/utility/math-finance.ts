// The two financial calculations of calculate_math, in decimal arithmetic rounded to 64 significant
// digits at the end (math-decimal.ts). They are
// closed-form and their inputs are bounded by math-params.ts, so they run in the gateway's own
// thread: no worker is needed.
import { Decimal, present } from './math-decimal.ts';
import type { CompoundInterestParams, DexSlippageParams } from './math-params.ts';

const BPS = 10_000;

export interface CompoundInterestResult {
  finalAmount: string;
  interest: string;
  /** finalAmount / principal. */
  growthFactor: string;
  /** The rate that, compounded once a year, gives the same growth. */
  effectiveAnnualRate: string;
  /** periods × time; null for continuous compounding. */
  totalPeriods: string | null;
}

/** A = P·(1 + r/n)^(n·t), or A = P·e^(r·t) when compounding is continuous. */
export function compoundInterest({ principal, rate, time, periods }: CompoundInterestParams): CompoundInterestResult {
  let growthFactor: Decimal;
  let effectiveAnnualRate: Decimal;
  let totalPeriods: Decimal | null = null;
  if (periods === 'continuous') {
    growthFactor = rate.times(time).exp();
    effectiveAnnualRate = rate.exp().minus(1);
  } else {
    const perPeriod = rate.div(periods).plus(1);
    totalPeriods = time.times(periods);
    growthFactor = perPeriod.pow(totalPeriods);
    effectiveAnnualRate = perPeriod.pow(periods).minus(1);
  }
  const finalAmount = principal.times(growthFactor);
  return {
    finalAmount: present(finalAmount),
    interest: present(finalAmount.minus(principal)),
    growthFactor: present(growthFactor),
    effectiveAnnualRate: present(effectiveAnnualRate),
    totalPeriods: totalPeriods === null ? null : present(totalPeriods),
  };
}

export interface DexSwapResult {
  amountOut: string;
  /** amountIn less the liquidity providers' fee. */
  amountInAfterFee: string;
  feeAmount: string;
  /** reserveOut / reserveIn: units of the output token per unit of input, before the swap. */
  spotPrice: string;
  /** amountOut / amountIn. */
  executionPrice: string;
  /** (reserveOut - amountOut) / (reserveIn + amountIn): the pool's price after the swap. */
  spotPriceAfter: string;
  /** 1 - executionPrice / spotPrice: what the trade gets below the spot price, fee included (the Uniswap SDK's Trade.priceImpact). */
  priceImpact: string;
  /** The same without the fee: amountInAfterFee / (reserveIn + amountInAfterFee). */
  priceImpactExcludingFee: string;
  /** 1 - spotPriceAfter / spotPrice: how far the trade moves the pool's price. */
  priceMovement: string;
  /** amountOut / (1 + tolerance), as the Uniswap SDK's Trade.minimumAmountOut: the least a transaction should accept. */
  minimumAmountOut: string;
  reserveInAfter: string;
  reserveOutAfter: string;
  /**
   * The contract's integer answer when every amount is a whole number of atomic units (wei...):
   * floor(amountIn·(10000 - feeBps)·reserveOut / (reserveIn·10000 + amountIn·(10000 - feeBps))),
   * which is Uniswap v2's getAmountOut for feeBps 30, and its minimum with the slippage tolerance.
   */
  atomic: { amountOut: string; minimumAmountOut: string } | null;
}

/** A constant-product (x·y = k) swap of amountIn into a pool, the fee staying in the pool as in Uniswap v2. */
export function dexSwap({ reserveIn, reserveOut, amountIn, feeBps, slippageToleranceBps }: DexSlippageParams): DexSwapResult {
  const feeFraction = feeBps.div(BPS);
  const amountInAfterFee = amountIn.times(new Decimal(1).minus(feeFraction));
  const amountOut = reserveOut.times(amountInAfterFee).div(reserveIn.plus(amountInAfterFee));
  const spotPrice = reserveOut.div(reserveIn);
  const executionPrice = amountOut.div(amountIn);
  const reserveInAfter = reserveIn.plus(amountIn);
  const reserveOutAfter = reserveOut.minus(amountOut);
  const spotPriceAfter = reserveOutAfter.div(reserveInAfter);
  const tolerance = slippageToleranceBps.div(BPS);
  return {
    amountOut: present(amountOut),
    amountInAfterFee: present(amountInAfterFee),
    feeAmount: present(amountIn.minus(amountInAfterFee)),
    spotPrice: present(spotPrice),
    executionPrice: present(executionPrice),
    spotPriceAfter: present(spotPriceAfter),
    priceImpact: present(new Decimal(1).minus(executionPrice.div(spotPrice))),
    priceImpactExcludingFee: present(amountInAfterFee.div(reserveIn.plus(amountInAfterFee))),
    priceMovement: present(new Decimal(1).minus(spotPriceAfter.div(spotPrice))),
    minimumAmountOut: present(amountOut.div(tolerance.plus(1))),
    reserveInAfter: present(reserveInAfter),
    reserveOutAfter: present(reserveOutAfter),
    atomic: atomicSwap(reserveIn, reserveOut, amountIn, feeBps, slippageToleranceBps),
  };
}

function atomicSwap(reserveIn: Decimal, reserveOut: Decimal, amountIn: Decimal, feeBps: Decimal, slippageToleranceBps: Decimal): DexSwapResult['atomic'] {
  const values = [reserveIn, reserveOut, amountIn, feeBps, slippageToleranceBps];
  // Beyond 1e60 the digits stop being the caller's (inputs have at most 100 characters, but exponents could stretch them).
  if (!values.every((value) => value.isInteger() && value.lt('1e60'))) return null;
  const [rIn, rOut, aIn, fee, slip] = values.map((value) => BigInt(value.toFixed(0))) as [bigint, bigint, bigint, bigint, bigint];
  const bps = BigInt(BPS);
  const inWithFee = aIn * (bps - fee);
  const out = (inWithFee * rOut) / (rIn * bps + inWithFee);
  return { amountOut: out.toString(), minimumAmountOut: ((out * bps) / (bps + slip)).toString() };
}
