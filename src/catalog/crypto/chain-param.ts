// The `chain` input of the token tools: Base is the one chain they read. Its name in any case,
// "base-mainnet" or its chain id 8453 are accepted; anything else is refused before payment,
// naming what is supported.
import { z } from 'zod';

const BASE_NAMES = new Set(['base', 'base-mainnet', '8453']);

export const SUPPORTED_CHAINS = 'base (Base mainnet, chain id 8453)';

export function isBaseChain(value: string): boolean {
  return BASE_NAMES.has(value.trim().toLowerCase());
}

/** The input field, with the spec's default (`base` or `Base`) kept visible in the published schema. */
export const baseChainField = (defaultName: 'base' | 'Base', description: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(40)
    .refine(isBaseChain, { message: `unsupported chain; supported: ${SUPPORTED_CHAINS}` })
    .default(defaultName)
    .describe(description);
