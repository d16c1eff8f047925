// A ticker resolved to one token on Base: DexScreener's search pairs whose base token has that
// symbol (any case), grouped by token address; the token with the most liquidity is chosen and the
// others are listed, since anyone can deploy a token with any symbol.
import type { DexPair } from '../../../upstream/providers/dexscreener.ts';

export interface Candidate {
  address: string;
  name: string;
  symbol: string;
  liquidityUsd: number;
  pools: number;
}

export function candidatesFor(symbol: string, pairs: readonly DexPair[]): Candidate[] {
  const wanted = symbol.toLowerCase();
  const byToken = new Map<string, Candidate>();
  for (const pair of pairs) {
    if (pair.chainId !== 'base' || pair.baseToken.symbol.toLowerCase() !== wanted) continue;
    const key = pair.baseToken.address.toLowerCase();
    const candidate = byToken.get(key) ?? { address: pair.baseToken.address, name: pair.baseToken.name, symbol: pair.baseToken.symbol, liquidityUsd: 0, pools: 0 };
    candidate.liquidityUsd = Math.round((candidate.liquidityUsd + (pair.liquidity?.usd ?? 0)) * 100) / 100;
    candidate.pools += 1;
    byToken.set(key, candidate);
  }
  return [...byToken.values()].sort((a, b) => b.liquidityUsd - a.liquidityUsd);
}
