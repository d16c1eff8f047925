// The crypto tools' own thresholds, read from the environment at call time (tests swap them); a bad
// value stops the start (config.ts). Each is in the README's configuration table.

export const CRYPTO_ENV = {
  whaleMinUsd: 'TOOLGATE_WHALE_MIN_USD',
  alphaWindowBlocks: 'TOOLGATE_ALPHA_WINDOW_BLOCKS',
  ethUsdMaxAgeSeconds: 'TOOLGATE_ETH_USD_MAX_AGE_S',
} as const;

export interface CryptoSettings {
  /** A USDC or WETH transfer worth at least this many USD is a whale alert. */
  whaleMinUsd: number;
  /** How many recent blocks the whale scan reads (Base: one block every 2 s). */
  alphaWindowBlocks: number;
  /** A Chainlink ETH/USD round older than this is flagged stale. */
  ethUsdMaxAgeSeconds: number;
}

export const DEFAULT_CRYPTO_SETTINGS: CryptoSettings = {
  whaleMinUsd: 100_000,
  alphaWindowBlocks: 50,
  ethUsdMaxAgeSeconds: 3_600,
};

export class CryptoSettingsError extends Error {
  override name = 'CryptoSettingsError';
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) throw new CryptoSettingsError(`${name} must be a whole number from ${min} to ${max} (got "${raw}")`);
  return value;
}

export function readCryptoSettings(env: NodeJS.ProcessEnv = process.env): CryptoSettings {
  return {
    whaleMinUsd: wholeNumber(env, CRYPTO_ENV.whaleMinUsd, DEFAULT_CRYPTO_SETTINGS.whaleMinUsd, 1, 1_000_000_000_000),
    alphaWindowBlocks: wholeNumber(env, CRYPTO_ENV.alphaWindowBlocks, DEFAULT_CRYPTO_SETTINGS.alphaWindowBlocks, 1, 1_000),
    ethUsdMaxAgeSeconds: wholeNumber(env, CRYPTO_ENV.ethUsdMaxAgeSeconds, DEFAULT_CRYPTO_SETTINGS.ethUsdMaxAgeSeconds, 60, 7 * 24 * 3_600),
  };
}
