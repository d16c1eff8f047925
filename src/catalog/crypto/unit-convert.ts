import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { decimalProblem, fromAtomic, significantFractionDigits, toAtomic } from './decimal-units.ts';

export const cryptoUnits = ['wei', 'gwei', 'ether', 'usdc_atomic', 'usdc'] as const;
export type CryptoUnit = (typeof cryptoUnits)[number];

interface UnitFacts {
  asset: 'ETH' | 'USDC';
  /** Decimal places between this unit and the asset's atomic unit. */
  decimals: number;
}

export const cryptoUnitFacts: Readonly<Record<CryptoUnit, UnitFacts>> = {
  wei: { asset: 'ETH', decimals: 0 },
  gwei: { asset: 'ETH', decimals: 9 },
  ether: { asset: 'ETH', decimals: 18 },
  usdc_atomic: { asset: 'USDC', decimals: 0 },
  usdc: { asset: 'USDC', decimals: 6 },
};

const atomicUnitOf = { ETH: 'wei', USDC: 'usdc_atomic' } as const satisfies Record<UnitFacts['asset'], CryptoUnit>;
const unitsOf = (asset: UnitFacts['asset']) => cryptoUnits.filter((unit) => cryptoUnitFacts[unit].asset === asset);
const isCryptoUnit = (unit: unknown): unit is CryptoUnit => cryptoUnits.some((known) => known === unit);

export const unitConvertTool = defineTool({
  name: 'convert_crypto_units',
  title: 'Convert crypto units',
  description:
    'Converts an amount between wei, gwei and ether (ETH: 0, 9 and 18 decimals) or between usdc_atomic and usdc ' +
    '(USDC: 0 and 6 decimals) exactly, with decimal-string arithmetic and no floating-point error. ' +
    'The value is a non-negative decimal string ("1.5", "000.100"), no exponent; the result is the exact amount in the ' +
    'target unit with no trailing zeros, plus the amount in the atomic unit (wei or usdc_atomic).',
  price: '0.001',
  http: [{ method: 'GET', path: '/api/crypto/unit-convert', rename: { fromUnit: 'from', toUnit: 'to' } }],
  input: z
    .object({
      value: z
        .string()
        .trim()
        .min(1)
        .max(100)
        .superRefine((value, ctx) => {
          const problem = value === '' ? undefined : decimalProblem(value); // empty is min(1)'s to report
          if (problem) ctx.addIssue({ code: 'custom', message: problem });
        })
        .describe('The amount as a decimal string, e.g. "1.5" or "1000000000000000000".'),
      fromUnit: z.enum(cryptoUnits).describe('The unit of value.'),
      toUnit: z.enum(cryptoUnits).default('ether').describe('The unit to convert to.'),
    })
    // zod runs this even when a field above failed, so it checks only what it can trust.
    .superRefine(({ value, fromUnit, toUnit }, ctx) => {
      if (!isCryptoUnit(fromUnit) || !isCryptoUnit(toUnit)) return;
      const from = cryptoUnitFacts[fromUnit];
      const to = cryptoUnitFacts[toUnit];
      if (from.asset !== to.asset) {
        ctx.addIssue({
          code: 'custom',
          path: ['toUnit'],
          message:
            `cannot convert ${fromUnit} (${from.asset}) to ${toUnit} (${to.asset}): they are different assets. ` +
            `fromUnit and toUnit must both be ${from.asset} units (${unitsOf(from.asset).join(', ')})` +
            (toUnit === 'ether' && from.asset === 'USDC' ? '; toUnit defaults to ether, so set it to one of those' : ''),
        });
      }
      if (typeof value !== 'string' || decimalProblem(value)) return;
      const places = significantFractionDigits(value);
      if (places > from.decimals) {
        ctx.addIssue({
          code: 'custom',
          path: ['value'],
          message: from.decimals === 0
            ? `${fromUnit} is the smallest unit of ${from.asset} and has no decimal places; "${value}" has ${places}`
            : `${fromUnit} has at most ${from.decimals} decimal places; "${value}" has ${places}`,
        });
      }
    }),
  example: { value: '1.5', fromUnit: 'ether', toUnit: 'gwei' },
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  async handler({ value, fromUnit, toUnit }) {
    const from = cryptoUnitFacts[fromUnit];
    const to = cryptoUnitFacts[toUnit];
    const atomic = toAtomic(value, from.decimals);
    return {
      value,
      fromUnit,
      toUnit,
      result: fromAtomic(atomic, to.decimals),
      asset: from.asset,
      atomic: { unit: atomicUnitOf[from.asset], value: atomic.toString() },
      decimals: { from: from.decimals, to: to.decimals },
    };
  },
});
