// Market signals on Base from DexScreener: the tokens with the most active boosts (paid promotion:
// attention, not quality), and among their pools the strong movers and volume spikes, above
// liquidity and volume floors so a thin pool's noise is not reported.
import type { DexPair, TokenBoost } from '../../../upstream/providers/dexscreener.ts';

export const BOOSTED_TOKENS = 10;
export const FLOORS = { liquidityUsd: 50_000, volume24hUsd: 100_000 } as const;
/** A 24 h price change at least this large (either way) makes a price mover. */
export const MOVER_CHANGE_PERCENT = 10;
/** Last hour's volume at least this many times the 24 h hourly average, and at least the minimum, makes a volume spike. */
export const SPIKE_RATIO = 3;
export const SPIKE_MIN_H1_USD = 10_000;

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

export interface MarketSignal {
  type: 'boosted_token' | 'price_mover' | 'volume_spike';
  token: { address: string; symbol: string | null; name: string | null };
  figures: Record<string, unknown>;
  pool: { dexId: string; pairAddress: string; url: string | null } | null;
}

function mainPool(token: string, pairs: readonly DexPair[]): DexPair | undefined {
  return pairs
    .filter((p) => p.chainId === 'base' && sameAddress(p.baseToken.address, token))
    .sort((a, b) => (b.liquidity?.usd ?? -1) - (a.liquidity?.usd ?? -1))[0];
}

export function baseBoosts(boosts: readonly TokenBoost[]): TokenBoost[] {
  const seen = new Set<string>();
  return boosts
    .filter((b) => b.chainId === 'base')
    .filter((b) => !seen.has(b.tokenAddress.toLowerCase()) && seen.add(b.tokenAddress.toLowerCase()))
    .sort((a, b) => (b.totalAmount ?? 0) - (a.totalAmount ?? 0))
    .slice(0, BOOSTED_TOKENS);
}

export function marketSignals(boosts: readonly TokenBoost[], pairs: readonly DexPair[]): MarketSignal[] {
  const signals: MarketSignal[] = [];
  for (const boost of boosts) {
    const pool = mainPool(boost.tokenAddress, pairs);
    const token = { address: boost.tokenAddress, symbol: pool?.baseToken.symbol ?? null, name: pool?.baseToken.name ?? null };
    const poolRef = pool ? { dexId: pool.dexId, pairAddress: pool.pairAddress, url: pool.url ?? null } : null;
    const liquidityUsd = pool?.liquidity?.usd;
    const volume24h = pool?.volume.h24;
    signals.push({
      type: 'boosted_token',
      token,
      figures: { activeBoosts: boost.totalAmount ?? null, priceUsd: pool?.priceUsd ?? null, liquidityUsd: liquidityUsd ?? null, volume24hUsd: volume24h ?? null, dexscreenerUrl: boost.url ?? null },
      pool: poolRef,
    });
    if (!pool || liquidityUsd === undefined || volume24h === undefined || liquidityUsd < FLOORS.liquidityUsd || volume24h < FLOORS.volume24hUsd) continue;
    const change24h = pool.priceChange.h24;
    if (change24h !== undefined && Math.abs(change24h) >= MOVER_CHANGE_PERCENT) {
      signals.push({ type: 'price_mover', token, figures: { priceChange24hPercent: change24h, priceChange1hPercent: pool.priceChange.h1 ?? null, priceUsd: pool.priceUsd ?? null, liquidityUsd, volume24hUsd: volume24h }, pool: poolRef });
    }
    const volume1h = pool.volume.h1;
    if (volume1h !== undefined && volume1h >= SPIKE_MIN_H1_USD && volume1h >= SPIKE_RATIO * (volume24h / 24)) {
      signals.push({ type: 'volume_spike', token, figures: { volume1hUsd: volume1h, hourlyAverage24hUsd: Math.round((volume24h / 24) * 100) / 100, ratio: Math.round((volume1h / (volume24h / 24)) * 100) / 100, liquidityUsd }, pool: poolRef });
    }
  }
  return signals;
}
