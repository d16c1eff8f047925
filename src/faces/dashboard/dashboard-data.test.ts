// The dashboard's JSON from fixed reports and metrics: exact money, explorer links on Base, tools
// from the catalogue, and what the public view leaves out. Expected values are written out by hand.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Address } from 'viem';
import { catalog } from '../../catalog/index.ts';
import type { HealthReport } from '../../health.ts';
import { CallMetrics } from '../../payments/call-metrics.ts';
import type { PaymentReports, ReportedPayment } from '../../payments/ledger/payment-reports.ts';
import { publicNetwork } from '../../payments/networks.ts';
import type { DashboardSources, EthPrice } from './dashboard-data.ts';
import { DashboardData } from './dashboard-data.ts';

const payTo = '0x1111111111111111111111111111111111111111' as Address;
const payer = '0xabcdefabcdefabcdefabcdefabcdefabcdefabcd';
const txHash = `0x${'ab'.repeat(32)}`;
const [first, second] = catalog as [(typeof catalog)[number], (typeof catalog)[number]];

const payment = (overrides: Partial<ReportedPayment>): ReportedPayment => ({
  id: 1, scheme: 'exact', channelId: null, payer, tool: first.name, amount: 5000n, network: 'eip155:8453', state: 'settled', txHash, error: null, attempts: 1,
  createdAt: new Date('2025-01-02T03:04:05Z'), updatedAt: new Date('2025-01-02T03:04:06Z'),
  settlingAt: new Date('2025-01-02T03:04:05.500Z'), settledAt: new Date('2025-01-02T03:04:06Z'), settlementMs: 500, ...overrides,
});

const zero = { amount: 0n, count: 0 };
const reports: PaymentReports = {
  async totals() {
    return {
      byState: {
        verified: zero, running: { amount: 7n, count: 1 }, settling: { amount: 3n, count: 1 }, settled: { amount: 1_000_001n, count: 3 },
        released: zero, failed: { amount: 5000n, count: 1 }, pending: zero, received: zero, claimed: zero, deposited: zero,
      },
      // 1.000001 USDC: exact in the strings, whatever a float would make of it.
      revenue: { amount: 1_000_001n, count: 3 },
      revenuePerTool: [
        { tool: second.name, amount: 1_000_000n, count: 1, perScheme: { exact: { amount: 1_000_000n, count: 1 } } },
        { tool: 'retired_tool', amount: 1n, count: 2, perScheme: { exact: { amount: 1n, count: 2 } } },
      ],
      perScheme: { exact: { earned: { amount: 1_000_001n, count: 3 }, collected: { amount: 1_000_001n, count: 3 } }, 'batch-settlement': { earned: zero, collected: zero } },
    };
  },
  async channelCollection() {
    const none = { transactions: 0, amount: 0n, gas: 0n, feeWei: 0n };
    return { deposit: none, claim: none, settle: none, refund: none };
  },
  async collectionCost() {
    // The second tool's one payment: 50,000 gas at 10 gwei = 0.0005 ETH.
    return { totalWei: 500_000_000_000_000n, payments: 1, perTool: [{ tool: second.name, costWei: 500_000_000_000_000n, payments: 1 }] };
  },
  async revenuePerDay() {
    return [{ day: '2025-01-02', amount: 1_000_001n, count: 3 }];
  },
  async settlementLatency() {
    return { sample: 1, p50Ms: 500, p90Ms: 500, p99Ms: 500, maxMs: 500, meanMs: 500, histogram: [{ fromMs: 0, toMs: null, count: 1 }] };
  },
  async payments({ states }) {
    if (states.includes('failed')) return [payment({ state: 'failed', txHash: 'not-a-hash', error: 'transaction_reverted: x', settledAt: null, settlementMs: null })];
    if (states.includes('settled')) return [payment({})];
    return [];
  },
};

function health(chainError?: string): () => Promise<HealthReport> {
  return async () => ({
    status: chainError ? 'degraded' : 'ok',
    version: '0.0.0',
    network: { name: 'base', id: 'eip155:8453', usdc: '0x', payTo },
    chain: chainError ? { reachable: false, error: chainError } : { reachable: true, blockNumber: '42' },
    ledger: { reachable: true },
    facilitator: 'embedded',
  });
}

function data(chainError?: string, ethPrice?: EthPrice, overrides: Partial<DashboardSources> = {}) {
  const metrics = new CallMetrics();
  const at = new Date('2025-01-02T03:04:06Z');
  metrics.record({ tool: first.name, face: 'http', kind: 'paid', at, durationMs: 10 });
  metrics.record({ tool: first.name, face: 'mcp', kind: 'invalid_input', code: 'invalid_input', at, durationMs: 2 });
  metrics.record({ tool: second.name, face: 'http', kind: 'tool_failed', code: 'tool_timeout', at, durationMs: 30 });
  return new DashboardData({
    catalog, reports, metrics, terms: { network: publicNetwork('base'), payTo, maxTimeoutSeconds: 300 }, facilitatorKind: 'embedded',
    health: health(chainError), now: () => new Date('2025-01-02T12:00:00Z'),
    ...(ethPrice ? { ethPrice: async () => ethPrice } : {}),
    ...overrides,
  });
}

const publicAccess = { level: 'public', reason: 'no token' } as const;
const detailed = { level: 'detailed', via: 'token' } as const;

test('money is exact decimal USDC beside its atomic integer', async () => {
  const overview = await data().overview(publicAccess);
  assert.deepEqual(overview.revenue.total, { usdc: '1.000001', atomic: '1000001' });
  assert.deepEqual(overview.revenue.perDay, [{ day: '2025-01-02', revenue: { usdc: '1.000001', atomic: '1000001' }, payments: 3 }]);
  assert.deepEqual(overview.settlement.states.inFlight, { count: 2, amount: { usdc: '0.00001', atomic: '10' } });
});

test('tools: every catalogue tool with its title and price, plus tools only the ledger knows; highest revenue first', async () => {
  const { tools } = await data().overview(publicAccess);
  assert.equal(tools.length, catalog.length + 1);
  assert.deepEqual(tools.slice(0, 3).map((t) => [t.name, t.revenue.usdc, t.calls, t.paid, t.notCharged]), [
    [second.name, '1', 1, 0, 1],
    ['retired_tool', '0.000001', 0, 0, 0],
    [first.name, '0', 2, 1, 1],
  ]);
  assert.equal(tools[0]?.title, second.title);
  assert.equal(tools[1]?.price, null);
  assert.equal(tools[1]?.title, 'retired_tool');
});

test('what collecting cost: gas per tool in ETH, and with an ETH price in USD per payment and net of the revenue', async () => {
  const unpriced = await data().overview(publicAccess);
  const tool = unpriced.tools.find((t) => t.name === second.name)!;
  assert.deepEqual(tool.collection, { payments: 1, eth: '0.0005', usd: null, perPaymentEth: '0.0005', perPaymentUsd: null, netUsd: null });
  assert.equal(unpriced.collection.ethPriceUsd, null);

  const priced = await data(undefined, { usd: 2500, source: 'TOOLGATE_ETH_PRICE_USD' }).overview(publicAccess);
  const costed = priced.tools.find((t) => t.name === second.name)!;
  // 0.0005 ETH at $2,500 = $1.25 against 1 USDC earned: this price loses $0.25.
  assert.deepEqual(costed.collection, { payments: 1, eth: '0.0005', usd: 1.25, perPaymentEth: '0.0005', perPaymentUsd: 1.25, netUsd: -0.25 });
  assert.equal(priced.collection.usd, 1.25);
  assert.equal(priced.collection.netUsd, -0.249999);
  assert.equal(priced.collection.ethPriceSource, 'TOOLGATE_ETH_PRICE_USD');
  assert.equal(priced.tools.find((t) => t.name === first.name)?.collection.payments, 0);
});

test('calls: totals by kind with every kind present, codes counted', async () => {
  const { calls } = await data().overview(publicAccess);
  assert.equal(calls.total, 3);
  assert.equal(calls.paid, 1);
  assert.equal(calls.notCharged, 2);
  assert.equal(calls.byKind.tool_failed?.count, 1);
  assert.equal(calls.byKind.unavailable?.count, 0);
  assert.deepEqual(calls.byCode, { invalid_input: 1, tool_timeout: 1 });
});

test('the public overview carries no payer and no transaction', async () => {
  const text = JSON.stringify(await data().overview(publicAccess));
  assert.equal(text.includes(payer), false);
  assert.equal(text.includes(txHash), false);
});

test('on Base, transactions and addresses link to the explorer; a malformed hash gets no link', async () => {
  const overview = await data().overview(detailed);
  assert.equal(overview.service.payToUrl, `https://basescan.org/address/${payTo}`);
  const payments = await data().payments();
  assert.equal(payments.recent[0]?.txUrl, `https://basescan.org/tx/${txHash}`);
  assert.equal(payments.recent[0]?.payerUrl, `https://basescan.org/address/${payer}`);
  assert.equal(payments.recent[0]?.settlementMs, 500);
  assert.deepEqual(payments.recent[0]?.amount, { usdc: '0.005', atomic: '5000' });
  assert.equal(payments.failed[0]?.txUrl, null);
  assert.equal(payments.failed[0]?.error, 'transaction_reverted: x');
});

test('health: an error message (which may name an RPC URL) only in the detailed view', async () => {
  const error = 'request to https://rpc.example/v2/SECRET-KEY failed';
  const open = await data(error).health(publicAccess);
  assert.equal(open.status, 'degraded');
  assert.deepEqual(open.components[0], { name: 'chain', kind: 'rpc', ok: false, detail: 'unreachable' });
  assert.equal(JSON.stringify(open).includes('SECRET-KEY'), false);
  assert.equal((await data(error).health(detailed)).components[0]?.detail, error);
  const fine = await data().health(publicAccess);
  assert.equal(fine.components[0]?.detail, 'block 42');
  assert.equal(fine.components[1]?.ok, true, 'the embedded facilitator is as healthy as the chain it settles on');
});

test('prices: the catalogue in its order, with routes and whether each tool is built', () => {
  const prices = data().prices();
  assert.deepEqual(prices.tools.map((t) => t.name), catalog.map((t) => t.name));
  assert.equal(prices.tools[0]?.price.usdc, first.price);
  assert.equal(prices.network, 'eip155:8453');
});

/** Six channel calls paid: three collected, one claimed, two received; one deposit; a claim, a settle and the deposit at 0.005 gwei. */
const channelReports: PaymentReports = {
  ...reports,
  async totals() {
    const exact = await reports.totals();
    return {
      ...exact,
      byState: { ...exact.byState, settled: { amount: 1_003_001n, count: 6 }, received: { amount: 2000n, count: 2 }, claimed: { amount: 1000n, count: 1 }, deposited: { amount: 100_000n, count: 1 } },
      revenue: { amount: 1_006_001n, count: 9 },
      revenuePerTool: [
        { tool: second.name, amount: 1_000_000n, count: 1, perScheme: { exact: { amount: 1_000_000n, count: 1 } } },
        { tool: first.name, amount: 6000n, count: 6, perScheme: { 'batch-settlement': { amount: 6000n, count: 6 } } },
      ],
      perScheme: { ...exact.perScheme, 'batch-settlement': { earned: { amount: 6000n, count: 6 }, collected: { amount: 3000n, count: 3 } } },
    };
  },
  async channelCollection() {
    const at = (gas: bigint, amount: bigint) => ({ transactions: 1, amount, gas, feeWei: gas * 5_000_000n });
    return { deposit: at(140_592n, 100_000n), claim: at(107_000n, 3000n), settle: at(56_840n, 3000n), refund: at(70_000n, 94_000n) };
  },
};

test('channels: what they hold from the claims summary, the calls by collection state, each collection step with its gas in gwei and USD', async () => {
  const deadline = Date.parse('2025-01-02T13:00:00Z') / 1000;
  const summary = { open: 2, deposits: 200_000n, unclaimed: 2000n, nearestDeadline: deadline };
  const { channels, revenue, tools } = await data(undefined, { usd: 2500, source: 'test' }, { reports: channelReports, channels: async () => summary }).overview(publicAccess);
  assert.equal(channels.offered, true);
  assert.equal(channels.open, 2);
  assert.deepEqual(channels.depositsHeld, { usdc: '0.2', atomic: '200000' });
  assert.deepEqual(channels.unclaimed, { usdc: '0.002', atomic: '2000' }, 'revenue at risk');
  assert.equal(channels.nearestWithdrawDeadline, '2025-01-02T13:00:00.000Z');
  assert.equal(channels.secondsToDeadline, 3600);
  assert.deepEqual([channels.calls.received.count, channels.calls.claimed.count, channels.calls.settled.count], [2, 1, 3]);
  assert.deepEqual(channels.deposited, { count: 1, amount: { usdc: '0.1', atomic: '100000' } });
  // 107,000 gas at 0.005 gwei = 535 gwei; at $2,500 an ETH, $0.0013375.
  assert.deepEqual(channels.collection.claims, { transactions: 1, amount: { usdc: '0.003', atomic: '3000' }, gas: '107000', feeGwei: 535, feeUsd: 0.0013375 });
  assert.equal(channels.collection.deposits.feeGwei, 702.96);
  assert.equal(channels.collection.settles.feeGwei, 284.2);
  assert.deepEqual(channels.collection.refunds, { transactions: 1, amount: { usdc: '0.094', atomic: '94000' }, gas: '70000', feeGwei: 350, feeUsd: 0.000875 }, 'what went back to payers, and its gas');
  assert.deepEqual(revenue.total, { usdc: '1.006001', atomic: '1006001' }, 'revenue counts channel calls when charged');
  assert.deepEqual(revenue.collected, { usdc: '1.003001', atomic: '1003001' });
  const channelTool = tools.find((t) => t.name === first.name)!;
  assert.deepEqual([channelTool.revenue.usdc, channelTool.channelCalls, channelTool.revenueByScheme['batch-settlement'].usdc], ['0.006', 6, '0.006']);
});

test('schemes side by side: calls, earned and collected, and the cost of collecting in all and per call, next to the revenue', async () => {
  const [exact, channel] = (await data(undefined, { usd: 2500, source: 'test' }, { reports: channelReports }).overview(publicAccess)).schemes;
  // exact: 0.0005 ETH over 3 payments. Channels: 1,872.16 gwei (deposit 702.96 + claim 535 + settle 284.2 + refund 350) over 6 calls.
  assert.deepEqual(exact, {
    scheme: 'exact', calls: 3, earned: { usdc: '1.000001', atomic: '1000001' }, collected: { usdc: '1.000001', atomic: '1000001' },
    cost: { gwei: 500_000, usd: 1.25 }, costPerCall: { gwei: 166_667, usd: 0.416667 }, costShare: 125, netUsd: -0.249999,
  });
  assert.deepEqual(channel, {
    scheme: 'batch-settlement', calls: 6, earned: { usdc: '0.006', atomic: '6000' }, collected: { usdc: '0.003', atomic: '3000' },
    cost: { gwei: 1872.16, usd: 0.0046804 }, costPerCall: { gwei: 312.027, usd: 0.000780067 }, costShare: 78.0067, netUsd: 0.0013196,
  });
  const unpriced = (await data(undefined, undefined, { reports: channelReports }).overview(publicAccess)).schemes[1]!;
  assert.deepEqual([unpriced.cost.usd, unpriced.costPerCall?.usd, unpriced.costShare, unpriced.netUsd], [null, null, null, null]);
});

test('without channels offered, the channel figures are zeros and say so', async () => {
  const { channels } = await data().overview(publicAccess);
  assert.equal(channels.offered, false);
  assert.equal(channels.open, 0);
  assert.equal(channels.nearestWithdrawDeadline, null);
});
