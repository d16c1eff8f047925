// get_alpha_signals paid for end to end: whale alerts read from the Base world's planted USDC and
// WETH transfers (only those worth the threshold), market signals from DexScreener's recorded
// boosts and pairs; faults of either provider never charged.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { CryptoWorld } from '../support/crypto-world.ts';
import { BASE_RPC_PATH, startCryptoWorld } from '../support/crypto-world.ts';
import { DEXSCREENER_PREFIX } from '../support/dexscreener-fixtures.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { assertNotCharged, payFor } from '../support/paid-call.ts';

let crypto: CryptoWorld;
let t: TestGateway;
before(async () => {
  crypto = await startCryptoWorld({ history: true });
  t = await crypto.gateway();
});
after(async () => {
  await crypto?.close();
});
beforeEach(() => crypto.restore());

interface Alert { type: string; token: string; txHash: string; blockNumber: number; amount: string; atomic: string; usd: string }
interface Signal { type: string; token: { address: string; symbol: string | null }; figures: Record<string, unknown> }

const PATH = '/api/alpha/crypto-signals';

describe('get_alpha_signals', () => {
  test('whale alerts are the planted large transfers with their facts, never the small ones; market signals from the boosts; settled at 0.005', async () => {
    const call = await payFor(t, PATH);
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.spent, 5000n);
    assert.match(String(call.body.disclaimer), /not advice/);
    const whales = call.body.whaleAlerts as { alerts: Alert[]; complete: boolean; threshold: { minUsd: number } };
    assert.equal(whales.threshold.minUsd, 100_000);
    assert.equal(whales.complete, true);
    const history = crypto.world.history!;
    for (const planted of [...history.usdcLarge, ...history.wethLarge]) {
      const alert = whales.alerts.find((a) => a.txHash === planted.txHash);
      assert.ok(alert, `large transfer ${planted.txHash} reported`);
      assert.equal(alert.blockNumber, Number(planted.blockNumber));
      assert.equal(alert.atomic, planted.amountAtomic.toString());
      assert.equal(alert.type, 'whale_transfer');
    }
    const weth = whales.alerts.find((a) => a.txHash === history.wethLarge[0]!.txHash)!;
    assert.deepEqual([weth.token, weth.amount, weth.usd], ['WETH', '200', '600000']);
    const million = whales.alerts.find((a) => a.txHash === history.usdcLarge[1]!.txHash)!;
    assert.deepEqual([million.amount, million.usd], ['1000000', '1000000']);
    for (const small of [...history.usdcSmall, ...history.wethSmall]) assert.ok(!whales.alerts.some((a) => a.txHash === small.txHash), 'small transfer not reported');
    assert.ok(whales.alerts.every((a) => Number(a.usd) >= 100_000));
    // Sorted by value, largest first.
    const values = whales.alerts.map((a) => Number(a.usd));
    assert.deepEqual(values, [...values].sort((a, b) => b - a));

    const signals = (call.body.marketSignals as { signals: Signal[] }).signals;
    const boosted = signals.filter((s) => s.type === 'boosted_token');
    // Only Base boosts, by total boosts: USDC (500), then the copycat (10); the Solana token is left out.
    assert.deepEqual(boosted.map((s) => s.token.address), [crypto.world.addresses.usdc, '0x1111111111111111111111111111111111111111']);
    assert.deepEqual(boosted[0]!.figures, {
      activeBoosts: 500, priceUsd: '0.004531', liquidityUsd: 879284.45, volume24hUsd: 250142.62,
      dexscreenerUrl: 'https://dexscreener.com/base/0x833589fcd6edb6e08f4c7c32d4f71b54bda02913',
    });
    // USDC's deepest pool moved 22.9% in 24 h above the floors; the copycat's pool is under them; no hour traded 3x its average.
    const movers = signals.filter((s) => s.type === 'price_mover');
    assert.deepEqual(movers.map((s) => [s.token.symbol, s.figures.priceChange24hPercent]), [['USDC', 22.9]]);
    assert.equal(signals.filter((s) => s.type === 'volume_spike').length, 0);
  });

  test('a lower threshold (TOOLGATE_WHALE_MIN_USD) brings the small transfers in', async () => {
    const saved = process.env.TOOLGATE_WHALE_MIN_USD;
    process.env.TOOLGATE_WHALE_MIN_USD = '40';
    try {
      const call = await payFor(t, PATH);
      assert.equal(call.status, 200, JSON.stringify(call.body));
      const alerts = (call.body.whaleAlerts as { alerts: Alert[] }).alerts;
      for (const small of [...crypto.world.history!.usdcSmall, ...crypto.world.history!.wethSmall]) {
        assert.ok(alerts.some((a) => a.txHash === small.txHash), `small transfer ${small.amountAtomic} now reported`);
      }
    } finally {
      if (saved === undefined) delete process.env.TOOLGATE_WHALE_MIN_USD;
      else process.env.TOOLGATE_WHALE_MIN_USD = saved;
    }
  });

  test('DexScreener or the chain failing fails the call, naming the provider, never charged', async () => {
    crypto.dex.on(`${DEXSCREENER_PREFIX}/token-boosts/top/v1`, { status: 500, body: 'Internal Server Error' });
    // The boosts of the first call are cached for a minute: a fresh gateway asks again.
    const fresh = await crypto.gateway();
    const failed = await payFor(fresh, PATH);
    assert.equal(failed.status, 502, JSON.stringify(failed.body));
    assert.match(String(failed.body.message), /^DexScreener: /);
    assertNotCharged(failed);
    crypto.restore();
    crypto.dex.on(BASE_RPC_PATH, { reset: true }, 'POST');
    const down = await payFor(t, PATH);
    assert.equal(down.status, 503, JSON.stringify(down.body));
    assert.match(String(down.body.message), /^Base RPC: /);
    assertNotCharged(down);
  });
});
