// Money on the dashboard is exact: atomic USDC as an integer string beside its decimal form.
import { atomicToUsdc } from '../../payments/price.ts';

export interface Money {
  /** Decimal USDC, exact. */
  usdc: string;
  /** Atomic units (6 decimals), as an integer string. */
  atomic: string;
}

export const money = (atomic: bigint): Money => ({ usdc: atomicToUsdc(atomic), atomic: atomic.toString() });
