// The merchant dashboard over HTTP, against real gateways on a real anvil: the figures after real
// paid calls, and the access rules (no payer address or transaction without the token).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PrivateKeyAccount } from 'viem';
import { catalog } from '../../src/catalog/index.ts';
import { hashesAndUuidsTool } from '../../src/catalog/utility/hashes-and-uuids.ts';
import { qrCodeTool } from '../../src/catalog/utility/qr-code.ts';
import { startDevChain } from '../../src/chain/devchain.ts';
import type { DevChain } from '../../src/chain/devchain.ts';
import { dashboardApi } from '../../src/faces/dashboard/dashboard-routes.ts';
import { freeEndpoints } from '../../src/faces/discovery/openapi.ts';
import { atomicToUsdc, usdcToAtomic } from '../../src/payments/price.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { payForExample } from '../support/paid-calls.ts';
import { fundedPayer } from '../support/payments.ts';

const TOKEN = 'dashboard-test-token-5f0c2a7e9b1d';
const uuidRoute = hashesAndUuidsTool.http[0]!;
const qrRoute = qrCodeTool.http[0]!;

let chain: DevChain;
let guarded: TestGateway; // TOOLGATE_DASHBOARD_TOKEN set
let open: TestGateway; // local, no token: open to loopback
const payers: PrivateKeyAccount[] = [];
const txHashes: string[] = [];

before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
  [guarded, open] = await Promise.all([
    startTestGateway({ devChain: chain, env: { TOOLGATE_DASHBOARD_TOKEN: TOKEN, TOOLGATE_ETH_PRICE_USD: '2500' } }),
    startTestGateway({ devChain: chain }),
  ]);
  payers.push(await fundedPayer(chain, '1'), await fundedPayer(chain, '1'));
  for (const t of [guarded, open]) {
    txHashes.push(await payForExample(t.baseUrl, hashesAndUuidsTool, uuidRoute, payers[0]!));
    txHashes.push(await payForExample(t.baseUrl, qrCodeTool, qrRoute, payers[1]!));
  }
  // A bad input: refused before payment, counted, not charged.
  const bad = await fetch(`${guarded.baseUrl}${qrRoute.path}`);
  assert.equal(bad.status, 400);
});
after(async () => {
  await Promise.all([guarded?.close(), open?.close()]);
  await chain?.stop();
});

const bearer = { authorization: `Bearer ${TOKEN}` };
const get = (t: TestGateway, path: string, headers: Record<string, string> = {}) => fetch(`${t.baseUrl}${path}`, { headers });
const expectedRevenue = atomicToUsdc(usdcToAtomic(hashesAndUuidsTool.price) + usdcToAtomic(qrCodeTool.price));

interface OverviewTool {
  name: string;
  title: string;
  price: { usdc: string; atomic: string } | null;
  calls: number;
  paid: number;
  notCharged: number;
  revenue: { usdc: string; atomic: string };
  settledPayments: number;
}

describe('the figures', () => {
  test('revenue: the total and each tool earn exactly their catalogue prices', async () => {
    const overview = await (await get(guarded, '/dashboard/api/overview')).json();
    assert.deepEqual(overview.revenue.total, { usdc: expectedRevenue, atomic: (usdcToAtomic(hashesAndUuidsTool.price) + usdcToAtomic(qrCodeTool.price)).toString() });
    assert.equal(overview.revenue.settledPayments, 2);
    const today = overview.revenue.perDay.at(-1);
    assert.equal(today.day, new Date().toISOString().slice(0, 10));
    assert.equal(today.revenue.usdc, expectedRevenue);
    assert.equal(overview.revenue.perDay.length, 14);
    for (const tool of [hashesAndUuidsTool, qrCodeTool]) {
      const row = (overview.tools as OverviewTool[]).find((t) => t.name === tool.name);
      assert.ok(row, tool.name);
      assert.equal(row.title, tool.title);
      assert.equal(row.price?.usdc, atomicToUsdc(usdcToAtomic(tool.price)));
      assert.equal(row.revenue.usdc, atomicToUsdc(usdcToAtomic(tool.price)));
      assert.equal(row.settledPayments, 1);
      assert.equal(row.paid, 1);
    }
  });

  test('schemes side by side: the exact payments with their cost per call next to the revenue; the channels offered, none open', async () => {
    const overview = await (await get(guarded, '/dashboard/api/overview')).json();
    const [exact, channel] = overview.schemes as { scheme: string; calls: number; earned: { usdc: string }; cost: { gwei: number; usd: number | null }; costPerCall: { gwei: number; usd: number | null } | null; costShare: number | null }[];
    assert.deepEqual([exact?.scheme, exact?.calls, exact?.earned.usdc], ['exact', 2, expectedRevenue]);
    assert.ok(exact && exact.cost.gwei > 0 && exact.costPerCall, 'settling cost gas');
    assert.ok(Math.abs(exact.costPerCall.gwei * 2 - exact.cost.gwei) <= exact.cost.gwei * 1e-5, `${exact.costPerCall.gwei} per call of ${exact.cost.gwei}`);
    assert.ok(exact.cost.usd !== null && exact.costShare !== null, 'priced at TOOLGATE_ETH_PRICE_USD');
    assert.deepEqual([channel?.scheme, channel?.calls, channel?.costPerCall], ['batch-settlement', 0, null]);
    assert.equal(overview.channels.offered, true);
    assert.equal(overview.channels.open, 0);
    assert.deepEqual(overview.channels.unclaimed, { usdc: '0', atomic: '0' });
  });

  test('calls: paid, asked to pay (402) and refused (400) are counted by kind; only the paid ones earn', async () => {
    const overview = await (await get(guarded, '/dashboard/api/overview')).json();
    assert.equal(overview.calls.paid, 2);
    assert.equal(overview.calls.byKind.payment_required.count, 2);
    assert.equal(overview.calls.byKind.invalid_input.count, 1);
    assert.equal(overview.calls.total, 5);
    assert.equal(overview.calls.notCharged, 3);
    const qr = (overview.tools as OverviewTool[]).find((t) => t.name === qrCodeTool.name)!;
    assert.deepEqual([qr.calls, qr.paid, qr.notCharged], [3, 1, 2]);
    assert.ok(overview.recentCalls.some((c: { tool: string; kind: string }) => c.tool === qrCodeTool.name && c.kind === 'paid'));
  });

  test('settlement: states and latency over the real settlements', async () => {
    const overview = await (await get(guarded, '/dashboard/api/overview')).json();
    assert.equal(overview.settlement.states.settled.count, 2);
    assert.equal(overview.settlement.states.pending.count, 0);
    assert.equal(overview.settlement.states.failed.count, 0);
    const latency = overview.settlement.latency;
    assert.equal(latency.sample, 2);
    assert.ok(latency.p50Ms > 0 && latency.p50Ms <= latency.maxMs, JSON.stringify(latency));
    assert.equal(latency.histogram.reduce((sum: number, b: { count: number }) => sum + b.count, 0), 2);
  });

  test('the service: network, pay-to address and facilitator', async () => {
    const { service } = await (await get(guarded, '/dashboard/api/overview')).json();
    assert.equal(service.network.id, guarded.gateway.network.caip2);
    assert.equal(service.payTo, guarded.gateway.terms.payTo);
    assert.equal(service.network.explorerUrl, null, 'the local chain has no explorer');
    assert.equal(service.facilitator, guarded.gateway.facilitator.kind);
  });

  test('the price list is the catalogue', async () => {
    const prices = await (await get(guarded, '/dashboard/api/prices')).json();
    assert.deepEqual(
      prices.tools.map((t: { name: string; price: { atomic: string }; routes: { method: string; path: string }[] }) => [t.name, t.price.atomic, t.routes]),
      catalog.map((tool) => [tool.name, usdcToAtomic(tool.price).toString(), tool.http.map((r) => ({ method: r.method, path: r.path }))]),
    );
  });

  test('health: chain, facilitator and ledger, and the configured upstream providers, not probed before their first call', async () => {
    const health = await (await get(guarded, '/dashboard/api/health')).json();
    assert.deepEqual(health.components.map((c: { name: string }) => c.name), ['chain', 'facilitator', 'ledger']);
    assert.ok(health.components.every((c: { ok: boolean | null }) => c.ok === true));
    const upstreams = health.upstreams as { name: string; ok: boolean | null; detail: string }[];
    assert.ok(upstreams.some((u) => u.name === 'Frankfurter'), JSON.stringify(upstreams.map((u) => u.name)));
    assert.ok(upstreams.every((u) => u.ok === null && /^0 requests/.test(u.detail)), 'no upstream-backed tool was called here');
  });

  test('a bad revenue window is refused with the field named', async () => {
    for (const days of ['0', '91', 'x', '1.5']) {
      const response = await get(guarded, `/dashboard/api/overview?days=${days}`);
      assert.equal(response.status, 400, days);
      assert.match((await response.json()).message, /days/);
    }
    const week = await (await get(guarded, '/dashboard/api/overview?days=7')).json();
    assert.equal(week.revenue.perDay.length, 7);
  });
});

describe('access with TOOLGATE_DASHBOARD_TOKEN set', () => {
  const secrets = () => [...payers.map((p) => p.address.toLowerCase()), ...txHashes.slice(0, 2).map((h) => h.toLowerCase())];

  test('without the token: no payer address and no transaction hash in the page or any API response', async () => {
    const index = await (await get(guarded, '/dashboard/api')).json();
    const apiPaths: string[] = index.endpoints.map((e: { path: string }) => e.path);
    assert.deepEqual(apiPaths, dashboardApi.map((e) => e.path));
    for (const path of ['/dashboard', '/dashboard/dashboard.js', '/dashboard/dashboard.css', ...apiPaths, '/dashboard/api/overview?days=90']) {
      const body = (await (await get(guarded, path)).text()).toLowerCase();
      for (const secret of secrets()) assert.equal(body.includes(secret), false, `${path} leaks ${secret}`);
    }
  });

  test('without the token: the detailed endpoint answers 403 and says how to get in', async () => {
    const response = await get(guarded, '/dashboard/api/payments');
    assert.equal(response.status, 403);
    const body = await response.json();
    assert.equal(body.error, 'token_required');
    assert.match(body.message, /Authorization: Bearer/);
    const overview = await (await get(guarded, '/dashboard/api/overview')).json();
    assert.equal(overview.access.level, 'public');
  });

  test('with the token: every payer and transaction is listed', async () => {
    const response = await get(guarded, '/dashboard/api/payments', bearer);
    assert.equal(response.status, 200);
    const body = await response.json();
    const listed = body.recent.map((p: { payer: string; txHash: string }) => [p.payer.toLowerCase(), p.txHash.toLowerCase()]).sort();
    const expected = [
      [payers[0]!.address.toLowerCase(), txHashes[0]!.toLowerCase()],
      [payers[1]!.address.toLowerCase(), txHashes[1]!.toLowerCase()],
    ].sort();
    assert.deepEqual(listed, expected);
    assert.ok(body.recent.every((p: { settlementMs: number; txUrl: string | null }) => p.settlementMs > 0 && p.txUrl === null));
    assert.deepEqual([body.pending, body.failed], [[], []]);
    const overview = await (await get(guarded, '/dashboard/api/overview', bearer)).json();
    assert.deepEqual(overview.access, { level: 'detailed', via: 'token' });
  });

  test('a wrong token is refused with 401 on every endpoint, and learns nothing', async () => {
    for (const { path } of dashboardApi) {
      const response = await get(guarded, path, { authorization: `Bearer ${TOKEN}-wrong` });
      assert.equal(response.status, 401, path);
      assert.match(response.headers.get('www-authenticate') ?? '', /^Bearer/);
      const body = (await response.text()).toLowerCase();
      for (const secret of secrets()) assert.equal(body.includes(secret), false, path);
    }
  });

  test('the token is not enough when sent in the query: only the Authorization header counts', async () => {
    const response = await get(guarded, `/dashboard/api/payments?token=${TOKEN}`);
    assert.equal(response.status, 403);
  });
});

describe('access on local without a token', () => {
  const inject = (path: string, headers: Record<string, string>) =>
    open.gateway.app.inject({ method: 'GET', url: path, headers, remoteAddress: '127.0.0.1' });

  test('open to loopback: the detail is there', async () => {
    const response = await get(open, '/dashboard/api/payments');
    assert.equal(response.status, 200);
    const text = (await response.text()).toLowerCase();
    assert.ok(text.includes(payers[0]!.address.toLowerCase()));
    assert.ok(text.includes(txHashes[2]!.toLowerCase()));
  });

  test('closed to a foreign browser Origin and to a foreign Host (DNS rebinding), even from loopback', async () => {
    const foreignOrigin = await get(open, '/dashboard/api/payments', { origin: 'https://attacker.example' });
    assert.equal(foreignOrigin.status, 403);
    const rebound = await inject('/dashboard/api/payments', { host: 'attacker.example:4021' });
    assert.equal(rebound.statusCode, 403);
    const overview = await inject('/dashboard/api/overview', { host: 'attacker.example:4021' });
    assert.equal(overview.statusCode, 200);
    assert.equal(overview.json().access.level, 'public');
  });

  test('closed to other addresses', async () => {
    const response = await open.gateway.app.inject({ method: 'GET', url: '/dashboard/api/payments', headers: { host: 'localhost:4021' }, remoteAddress: '10.1.2.3' });
    assert.equal(response.statusCode, 403);
  });
});

describe('the page', () => {
  test('is HTML with a strict content security policy and no referrer', async () => {
    const response = await get(guarded, '/dashboard');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(response.headers.get('content-security-policy') ?? '', /script-src 'self'/);
    assert.equal(response.headers.get('referrer-policy'), 'no-referrer');
    const html = await response.text();
    assert.match(html, /<script src="\/dashboard\/dashboard\.js" defer><\/script>/);
    for (const id of ['channels', 'schemes']) assert.match(html, new RegExp(`id="${id}"`), `the ${id} card`);
    const script = await get(guarded, '/dashboard/dashboard.js');
    assert.match(script.headers.get('content-type') ?? '', /javascript/);
  });

  test('holds no tool name or price of its own: all of it comes from the API', async () => {
    const page = [await (await get(guarded, '/dashboard')).text(), await (await get(guarded, '/dashboard/dashboard.js')).text()].join('\n');
    for (const tool of catalog) {
      assert.equal(page.includes(tool.name), false, tool.name);
      for (const route of tool.http) assert.equal(page.includes(route.path), false, route.path);
    }
  });
});

describe('the landing page', () => {
  for (const path of ['/', '/api']) {
    test(`GET ${path}: what the service is, every document linked, every tool with its price`, async () => {
      const response = await get(guarded, path, { accept: 'text/html' });
      assert.equal(response.status, 200);
      assert.match(response.headers.get('content-type') ?? '', /^text\/html/);
      const html = await response.text();
      for (const document of freeEndpoints.filter((d) => d.path !== '/')) assert.ok(html.includes(`href="${document.path}"`), document.path);
      for (const tool of catalog) {
        assert.ok(html.includes(tool.name), tool.name);
        assert.ok(html.includes(`<td class="num">${atomicToUsdc(usdcToAtomic(tool.price))}</td>`), `${tool.name} price`);
        for (const route of tool.http) assert.ok(html.includes(`${route.method} ${route.path}`), route.path);
      }
      assert.ok(html.includes(guarded.gateway.terms.payTo));
    });
  }

  test('GET /api as JSON for agents', async () => {
    const response = await get(guarded, '/api', { accept: 'application/json' });
    assert.match(response.headers.get('content-type') ?? '', /^application\/json/);
    const body = await response.json();
    assert.equal(body.tools.length, catalog.length);
    assert.deepEqual(body.documents.map((d: { path: string }) => d.path), freeEndpoints.filter((d) => d.path !== '/').map((d) => d.path));
    assert.equal(body.documents[0].url, `http://gateway.test${body.documents[0].path}`);
  });

  test('the landing page links are answered by the gateway', async () => {
    for (const document of freeEndpoints) {
      const response = await get(guarded, document.path);
      assert.equal(response.status, 200, document.path);
    }
  });
});

describe('what collecting cost', () => {
  test('each paid tool shows the gas its settlements used, in ETH and, with an ETH price, in USD next to its revenue', async () => {
    type Collection = { payments: number; eth: string; usd: number | null; perPaymentUsd: number | null; netUsd: number | null };
    const overview = (await (await get(guarded, '/dashboard/api/overview')).json()) as {
      collection: Collection & { ethPriceUsd: number | null; ethPriceSource: string | null };
      tools: { name: string; revenue: { usdc: string }; collection: Collection }[];
    };
    const uuid = overview.tools.find((t) => t.name === hashesAndUuidsTool.name)!;
    assert.equal(uuid.collection.payments, 1);
    const eth = Number(uuid.collection.eth);
    // A settlement alone on the local chain: ~86k gas at anvil's ~1 gwei base fee.
    assert.ok(eth > 0 && eth < 0.001, `gas of one settlement: ${uuid.collection.eth} ETH`);
    assert.equal(uuid.collection.usd, Number((eth * 2500).toPrecision(6)));
    assert.equal(uuid.collection.netUsd, Number((Number(uuid.revenue.usdc) - eth * 2500).toPrecision(6)));
    assert.equal(overview.collection.payments, 2);
    assert.equal(overview.collection.ethPriceSource, 'TOOLGATE_ETH_PRICE_USD');

    const unpriced = (await (await get(open, '/dashboard/api/overview')).json()) as { collection: Collection & { ethPriceUsd: number | null } };
    assert.equal(unpriced.collection.ethPriceUsd, null, 'the local chain\'s ETH has no price unless configured');
    assert.equal(unpriced.collection.usd, null);
    assert.ok(Number(unpriced.collection.eth) > 0);
  });
});
