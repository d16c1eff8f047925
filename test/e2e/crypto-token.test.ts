// get_token_analytics paid for end to end: chain facts from the Base world (Circle's USDC at its
// canonical address), market data from DexScreener's recorded answers, each figure computed here
// by hand from the fixtures; refusals and provider faults never charged.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { createPublicClient, erc20Abi, http } from 'viem';
import type { CryptoWorld } from '../support/crypto-world.ts';
import { startCryptoWorld } from '../support/crypto-world.ts';
import { DEXSCREENER_PREFIX } from '../support/dexscreener-fixtures.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { assertNotCharged, payFor, withQuery } from '../support/paid-call.ts';

let crypto: CryptoWorld;
let t: TestGateway;
before(async () => {
  crypto = await startCryptoWorld();
  t = await crypto.gateway();
});
after(async () => {
  await crypto?.close();
});
beforeEach(() => crypto.restore());

const token = (query: Record<string, string>) => withQuery('/api/crypto/token', query);

interface Market {
  priceUsd: string;
  priceSource: { dexId: string; pairAddress: string };
  liquidity: { totalUsd: number; pools: number; poolsWithoutDepth: number; top: { pairAddress: string; liquidityUsd: number | null }[] };
  volume24hUsd: number;
  trades: Record<'h24' | 'h1', { buys: number; sells: number; buySellRatio: number | null }>;
  priceChangePercent: Record<string, number>;
  fdvUsd: number;
  marketCapUsd: number;
  oldestPool: { createdAt: string };
}

describe('get_token_analytics', () => {
  test('a symbol: the deepest token with it on Base is chosen, the look-alike listed; chain facts and market figures; settled at 0.003', async () => {
    const call = await payFor(t, token({ address: 'USDC' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.spent, 3000n);
    const body = call.body as { token: { address: string; name: string; decimals: number; totalSupply: { atomic: string } }; resolvedFrom: { ambiguous: boolean; others: { address: string }[] }; market: Market };
    assert.equal(body.token.address, crypto.world.addresses.usdc);
    assert.equal(body.token.name, 'USD Coin');
    assert.equal(body.token.decimals, 6);
    const supply = await createPublicClient({ transport: http(crypto.world.rpcUrl) }).readContract({ address: crypto.world.addresses.usdc, abi: erc20Abi, functionName: 'totalSupply' });
    assert.equal(body.token.totalSupply.atomic, supply.toString());
    assert.equal(body.resolvedFrom.ambiguous, true);
    // The copycat "usdc" on Base is listed; the pair on another chain is not a candidate.
    assert.deepEqual(body.resolvedFrom.others.map((o) => o.address), ['0x1111111111111111111111111111111111111111']);

    const market = body.market;
    // The deepest pool with USDC as its base token (879,284.45 USD) gives the price.
    assert.equal(market.priceUsd, '0.004531');
    assert.equal(market.priceSource.pairAddress, '0x88A43bbDF9D098eEC7bCEda4e2494615dfD9bB9C');
    assert.equal(market.liquidity.totalUsd, 879883.95);
    assert.equal(market.liquidity.pools, 3);
    assert.equal(market.liquidity.poolsWithoutDepth, 1);
    assert.equal(market.volume24hUsd, 251638.52);
    assert.deepEqual(market.trades.h24, { buys: 14, sells: 824, buySellRatio: 0.017, pools: 3 });
    assert.deepEqual(market.trades.h1, { buys: 0, sells: 16, buySellRatio: 0, pools: 3 });
    assert.deepEqual(market.priceChangePercent, { m5: 0, h1: 1.08, h6: -8.18, h24: 22.9 });
    assert.equal(market.fdvUsd, 63000000000);
    assert.equal(market.oldestPool.createdAt, '2024-03-11T13:18:26.000Z');
  });

  test('an address, in any case: the same token without a resolution', async () => {
    const call = await payFor(t, token({ address: crypto.world.addresses.usdc.toLowerCase() }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal((call.body.token as { symbol: string }).symbol, 'USDC');
    assert.equal(call.body.resolvedFrom, undefined);
    assert.equal((call.body.market as Market).priceUsd, '0.004531');
  });

  test('a token without pools is still a paid answer of chain facts, saying there is no market', async () => {
    const call = await payFor(t, token({ address: crypto.world.addresses.weth }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal((call.body.token as { symbol: string }).symbol, 'WETH');
    assert.equal(call.body.market, null);
    assert.match(String(call.body.marketNote), /no pool/);
  });

  test('an address that is not an ERC-20 is a free 422', async () => {
    for (const address of [crypto.world.wallets.eoa.address, crypto.world.wallets.smartWallet.address]) {
      const call = await payFor(t, token({ address }));
      assert.equal(call.status, 422, JSON.stringify(call.body));
      assertNotCharged(call);
    }
  });

  test('an unknown symbol is a free 404; another chain is a 400 before payment naming Base', async () => {
    const unknown = await payFor(t, token({ address: 'NOPE' }));
    assert.equal(unknown.status, 404, JSON.stringify(unknown.body));
    assertNotCharged(unknown);
    const other = await fetch(`${t.baseUrl}${token({ address: 'USDC', chain: 'ethereum' })}`);
    assert.equal(other.status, 400);
    assert.match(await other.text(), /supported: base \(Base mainnet, chain id 8453\)/);
  });

  test('DexScreener failing is a 502 / 503 naming it, never charged', async () => {
    crypto.dex.on(`${DEXSCREENER_PREFIX}/latest/dex/search`, { status: 500, body: 'Internal Server Error' });
    const failed = await payFor(t, token({ address: 'usdc' }));
    assert.equal(failed.status, 502, JSON.stringify(failed.body));
    assert.match(String(failed.body.message), /^DexScreener: /);
    assertNotCharged(failed);
    // Another spelling of the symbol: a question the cache has not seen.
    crypto.dex.on(`${DEXSCREENER_PREFIX}/latest/dex/search`, { status: 429, headers: { 'retry-after': '60' }, body: '' });
    const limited = await payFor(t, token({ address: 'Usdc' }));
    assert.equal(limited.status, 503, JSON.stringify(limited.body));
    assertNotCharged(limited);
  });
});
