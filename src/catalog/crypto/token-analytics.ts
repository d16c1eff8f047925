import { z } from 'zod';
import { getAddress } from 'viem';
import type { Address } from 'viem';
import { chainClient, readChain } from '../../upstream/chain/chain-client.ts';
import { searchPairs, tokenPairs } from '../../upstream/providers/dexscreener.ts';
import { defineTool, ToolError } from '../tool.ts';
import { baseChainField } from './chain-param.ts';
import { readErc20Metadata } from './erc20-metadata.ts';
import { marketSummary } from './token-analytics/market-summary.ts';
import { candidatesFor } from './token-analytics/symbol-match.ts';

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

export const tokenAnalyticsTool = defineTool({
  name: 'get_token_analytics',
  title: 'Token analytics',
  description: 'Returns a token\'s price, pool depth, 24h volume and buy/sell ratios.',
  price: '0.003',
  http: [{ method: 'GET', path: '/api/crypto/token', rename: { addressOrSymbol: 'address' } }],
  input: z.object({
    addressOrSymbol: z.string().trim().min(1).max(64)
      .refine((v) => ADDRESS.test(v) || /^[A-Za-z0-9.$_-]{1,20}$/.test(v), {
        message: 'expected a 0x-prefixed 20-byte token address or a ticker symbol such as "USDC"',
      })
      .describe('The token\'s contract address, or its ticker symbol.'),
    chain: baseChainField('base', 'The chain the token lives on: base (the only one supported).'),
  }),
  example: { addressOrSymbol: 'USDC', chain: 'base' },
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handler(input, ctx) {
    let address: Address;
    let resolution: Record<string, unknown> | undefined;
    if (ADDRESS.test(input.addressOrSymbol)) {
      address = getAddress(input.addressOrSymbol.toLowerCase());
    } else {
      const found = await searchPairs(ctx.upstream, input.addressOrSymbol, ctx.signal);
      const candidates = candidatesFor(input.addressOrSymbol, found.value);
      const chosen = candidates[0];
      if (!chosen) {
        throw new ToolError(404, 'token_not_found', `no token with the symbol ${input.addressOrSymbol} has a pool on Base in DexScreener's search. You were not charged.`);
      }
      address = getAddress(chosen.address.toLowerCase());
      resolution = {
        symbol: input.addressOrSymbol,
        chosenBy: 'the most liquidity (USD) over its Base pools among the tokens with this symbol',
        ambiguous: candidates.length > 1,
        others: candidates.slice(1),
        source: found.source,
      };
    }

    const chain = chainClient(ctx.upstream, 'mainnet', ctx.signal);
    // Both asked at once; a contract that is not a token is refused on the chain's word alone.
    const pairsAsked = tokenPairs(ctx.upstream, 'base', address, ctx.signal);
    pairsAsked.catch(() => undefined);
    const facts = await readChain(chain, async (client) => {
      const head = await client.getBlock();
      return { head, reading: await readErc20Metadata(client, address, head.number) };
    });
    if (!facts.reading.ok) {
      throw new ToolError(422, 'not_an_erc20', `${address} is not an ERC-20 token on Base: ${facts.reading.reason}. You were not charged.`, { address });
    }
    const pairs = await pairsAsked;
    const market = pairs.value.length > 0 ? marketSummary(address, pairs.value, ctx.now()) : null;
    return {
      network: 'base',
      chainId: 8453,
      token: facts.reading.token,
      block: { number: Number(facts.head.number), timestamp: new Date(Number(facts.head.timestamp) * 1000).toISOString() },
      ...(resolution ? { resolvedFrom: resolution } : {}),
      market,
      ...(market ? {} : { marketNote: 'DexScreener lists no pool of this token on Base: no price, depth or volume to report' }),
      sources: {
        chain: { provider: chain.provider.id, name: chain.provider.name, attribution: chain.provider.attribution },
        market: pairs.source,
      },
    };
  },
});
