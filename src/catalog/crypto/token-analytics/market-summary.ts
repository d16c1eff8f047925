// A token's market on Base from its DexScreener pairs: price from the deepest pool where it is the
// base token, depth per pool and in total, volume and trades summed over the pools, price change,
// FDV and market cap of the main pool, and the age of its oldest pool.
import type { DexPair, Window } from '../../../upstream/providers/dexscreener.ts';

export const TOP_POOLS = 5;

const cents = (value: number) => Math.round(value * 100) / 100;
const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

function trades(pairs: readonly DexPair[], window: Window) {
  let buys = 0;
  let sells = 0;
  let counted = 0;
  for (const pair of pairs) {
    const t = pair.txns[window];
    if (!t) continue;
    buys += t.buys;
    sells += t.sells;
    counted += 1;
  }
  return { buys, sells, buySellRatio: sells > 0 ? Math.round((buys / sells) * 1000) / 1000 : null, pools: counted };
}

export function marketSummary(token: string, allPairs: readonly DexPair[], now: Date) {
  const pairs = allPairs.filter((p) => p.chainId === 'base');
  const asBase = pairs.filter((p) => sameAddress(p.baseToken.address, token));
  const byDepth = [...pairs].sort((a, b) => (b.liquidity?.usd ?? -1) - (a.liquidity?.usd ?? -1));
  const main = [...asBase].sort((a, b) => (b.liquidity?.usd ?? -1) - (a.liquidity?.usd ?? -1))[0];
  const withDepth = pairs.filter((p) => p.liquidity?.usd !== undefined);
  const created = pairs.map((p) => p.pairCreatedAt).filter((t): t is number => t !== undefined);
  const oldest = created.length > 0 ? Math.min(...created) : undefined;
  return {
    priceUsd: main?.priceUsd ?? null,
    priceSource: main ? { dexId: main.dexId, pairAddress: main.pairAddress, quoteToken: main.quoteToken.symbol, why: 'the deepest pool in which this token is the base token' } : null,
    liquidity: {
      totalUsd: cents(withDepth.reduce((sum, p) => sum + p.liquidity!.usd!, 0)),
      pools: pairs.length,
      poolsWithoutDepth: pairs.length - withDepth.length,
      top: byDepth.slice(0, TOP_POOLS).map((p) => ({
        dexId: p.dexId,
        labels: p.labels,
        pairAddress: p.pairAddress,
        pair: `${p.baseToken.symbol}/${p.quoteToken.symbol}`,
        liquidityUsd: p.liquidity?.usd ?? null,
        url: p.url ?? null,
      })),
    },
    volume24hUsd: cents(pairs.reduce((sum, p) => sum + (p.volume.h24 ?? 0), 0)),
    trades: { h24: trades(pairs, 'h24'), h1: trades(pairs, 'h1') },
    priceChangePercent: main ? main.priceChange : null,
    fdvUsd: main?.fdv ?? null,
    marketCapUsd: main?.marketCap ?? null,
    oldestPool: oldest === undefined ? null : { createdAt: new Date(oldest).toISOString(), ageDays: Math.floor((now.getTime() - oldest) / 86_400_000) },
  };
}
