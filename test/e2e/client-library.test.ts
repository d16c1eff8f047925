// The typed client library (toolgate/client) pays a real gateway on anvil with Circle's USDC, and
// refuses, with nothing signed, a 402 that asks more than its per-call cap.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Hex, LocalAccount } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createClient, functionTools, SpendRefused, ToolCallFailed } from 'toolgate/client';
import { catalog } from '../../src/catalog/index.ts';
import { gatewayAddress } from '../../src/client/gateway-address.ts';
import { GatewaySession } from '../../src/client/gateway-session.ts';
import { SpendLimits } from '../../src/client/spend-limits.ts';
import { SpendRecord } from '../../src/client/spend-record.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { chainClients, fundedPayerKey } from '../support/payments.ts';
import { countingEchoTool, failingTool, sideEffectTool } from '../support/test-tools.ts';

let t: TestGateway;
let home: string;
const echo = countingEchoTool('0.004');
let slowRuns = 0;
const slow = sideEffectTool(async () => {
  slowRuns += 1;
  await new Promise((resolve) => setTimeout(resolve, 3_000));
}, '0.003');
before(async () => {
  // These tests are about exact payments (one settlement per call); paying by channel: channel-payer.test.ts.
  t = await startTestGateway({ catalog: [...catalog, echo.tool, failingTool('0.002'), slow], env: { TOOLGATE_SCHEMES: 'exact' } });
  home = await mkdtemp(join(tmpdir(), 'toolgate-client-'));
});
after(async () => {
  await t?.close();
  await rm(home, { recursive: true, force: true });
});

test('a typed tool function pays, returns the output and a receipt whose transaction moved exactly the price', { timeout: 90_000 }, async () => {
  const payerKey = await fundedPayerKey(t.devChain, '1');
  const payer = privateKeyToAccount(payerKey);
  const { balanceOf, publicClient } = chainClients(t.devChain);
  const before = [await balanceOf(payer.address), await balanceOf(t.devChain.payTo)] as const;
  const toolgate = createClient({ url: t.baseUrl, payerKey, env: { TOOLGATE_HOME: home, TOOLGATE_DATA_DIR: join(home, 'no-local-gateway') } });
  try {
    const { output, receipt } = await toolgate.generate_hashes_and_uuids({ input: 'hello world' });
    // Typed from the catalogue: the handler's union of ids, or ids and Hashes when an input is given.
    assert.ok('hash' in output, JSON.stringify(output));
    assert.equal(output.hash.sha256, 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9');
    assert.ok(receipt);
    assert.equal(receipt.price, '0.001');
    assert.equal(receipt.payer, payer.address);
    assert.equal(receipt.network, t.devChain.network);
    assert.equal(receipt.explorerUrl, undefined, 'a local chain has no explorer');
    const mined = await publicClient.getTransactionReceipt({ hash: receipt.transaction as Hex });
    assert.equal(mined.status, 'success');
    assert.equal(before[0] - (await balanceOf(payer.address)), 1000n);
    assert.equal((await balanceOf(t.devChain.payTo)) - before[1], 1000n);
    assert.equal(toolgate.sessionSpent(), '0.001');
    const entries = await new SpendRecord(join(home, 'spend.json')).entries();
    const mine = entries.filter((e) => e.payer === payer.address);
    assert.deepEqual(mine.map((e) => [e.state, e.amount, e.transaction]), [['spent', '1000', receipt.transaction]]);
  } finally {
    await toolgate.close();
  }
});

test('--max-price below the price: refused before signing, nothing moves, the tool does not run', { timeout: 90_000 }, async () => {
  const payerKey = await fundedPayerKey(t.devChain, '1');
  const payer = privateKeyToAccount(payerKey);
  const { balanceOf } = chainClients(t.devChain);
  const before = [await balanceOf(payer.address), await balanceOf(t.devChain.payTo)] as const;
  const runs = echo.runs.count;
  const toolgate = createClient({ url: t.baseUrl, payerKey, maxPrice: '0.003', env: { TOOLGATE_HOME: home, TOOLGATE_DATA_DIR: join(home, 'no-local-gateway') } });
  try {
    await assert.rejects(toolgate.call('test_echo', { word: 'dear' }), (error: unknown) => {
      assert.ok(error instanceof SpendRefused, String(error));
      assert.equal(error.cap, 'per-call');
      assert.equal(error.price, 4000n);
      assert.match(error.message, /test_echo costs 0\.004 USDC, above the per-call cap of 0\.003 USDC.*--max-price/);
      return true;
    });
  } finally {
    await toolgate.close();
  }
  assert.equal(echo.runs.count, runs);
  assert.equal(await balanceOf(payer.address), before[0]);
  assert.equal(await balanceOf(t.devChain.payTo), before[1]);
});

test('with no --max-price, a 402 asking more than the discovery document advertises is refused with nothing signed', { timeout: 90_000 }, async () => {
  const payer = privateKeyToAccount(await fundedPayerKey(t.devChain, '1'));
  let signatures = 0;
  const signTypedData = (async (parameters: Parameters<LocalAccount['signTypedData']>[0]) => {
    signatures += 1;
    return payer.signTypedData(parameters);
  }) as LocalAccount['signTypedData'];
  const counted: LocalAccount = { ...payer, signTypedData };
  // The document this client reads advertises 0.001 for test_echo; the gateway's 402 asks 0.004.
  const cheapDocument: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (!String(input instanceof Request ? input.url : input).endsWith('/.well-known/x402')) return response;
    const text = (await response.text()).replaceAll('"amount":"4000"', '"amount":"1000"').replaceAll('"price":"0.004"', '"price":"0.001"');
    return new Response(text, { status: response.status, headers: response.headers });
  };
  const record = new SpendRecord(join(home, 'spend-advertised.json'));
  const session = new GatewaySession({ address: gatewayAddress(t.baseUrl), limits: new SpendLimits({ record }), payer: async () => counted, fetch: cheapDocument });
  const runs = echo.runs.count;
  try {
    const tool = (await session.tools()).find((x) => x.name === 'test_echo');
    assert.equal(tool?.atomicPrice, 1000n, 'the doctored document is what the client read');
    await assert.rejects(session.call('test_echo', { word: 'dear' }), (error: unknown) => {
      assert.ok(error instanceof SpendRefused, String(error));
      assert.equal(error.price, 4000n);
      assert.equal(error.limit, 1000n);
      return true;
    });
  } finally {
    await session.close();
  }
  assert.equal(signatures, 0);
  assert.equal(echo.runs.count, runs);
  assert.deepEqual(await record.entries(), []);
});

test('a paid call whose tool fails is not charged: the reservation is released, the daily budget is whole again', { timeout: 90_000 }, async () => {
  const payerKey = await fundedPayerKey(t.devChain, '1');
  const payer = privateKeyToAccount(payerKey);
  const { balanceOf } = chainClients(t.devChain);
  const before = await balanceOf(payer.address);
  const dailyHome = await mkdtemp(join(tmpdir(), 'toolgate-client-daily-'));
  const toolgate = createClient({ url: t.baseUrl, payerKey, dailyBudget: '0.002', env: { TOOLGATE_HOME: dailyHome, TOOLGATE_DATA_DIR: join(dailyHome, 'no-local-gateway') } });
  try {
    await assert.rejects(toolgate.call('test_failing', {}), (error: unknown) => {
      assert.ok(error instanceof ToolCallFailed, String(error));
      assert.equal(error.charged, 'no');
      assert.match(error.message, /kaboom|failed/);
      assert.match(error.message, /you were not charged/);
      return true;
    });
    assert.deepEqual(await new SpendRecord(join(dailyHome, 'spend.json')).entries(), []);
    assert.equal(toolgate.sessionSpent(), '0');
    // Had the first attempt stayed reserved, this one (0.002 again, budget 0.002) would be refused before signing.
    await assert.rejects(toolgate.call('test_failing', {}), ToolCallFailed);
    const paid = await toolgate.generate_hashes_and_uuids({});
    assert.equal(paid.receipt?.price, '0.001');
  } finally {
    await toolgate.close();
    await rm(dailyHome, { recursive: true, force: true });
  }
  assert.equal(before - (await balanceOf(payer.address)), 1000n);
});

test('the answer to a paid call is lost: the same payment is sent again and gets the stored result, paid once', { timeout: 90_000 }, async () => {
  const payer = privateKeyToAccount(await fundedPayerKey(t.devChain, '1'));
  const { balanceOf } = chainClients(t.devChain);
  const before = await balanceOf(t.devChain.payTo);
  let dropped = 0;
  // The first paid request reaches the gateway and is answered; the answer never comes back.
  const losingFetch: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    if (dropped === 0 && typeof init?.body === 'string' && init.body.includes('x402/payment')) {
      dropped += 1;
      await response.arrayBuffer();
      throw new TypeError('fetch failed (answer lost on purpose)');
    }
    return response;
  };
  const record = new SpendRecord(join(home, 'spend-lost.json'));
  const session = new GatewaySession({ address: gatewayAddress(t.baseUrl), limits: new SpendLimits({ record }), payer: async () => payer, fetch: losingFetch });
  const runs = echo.runs.count;
  try {
    const paid = await session.call('test_echo', { word: 'again' });
    assert.equal(dropped, 1);
    assert.deepEqual(paid.output, { echo: 'again' });
    assert.ok(paid.receipt);
    assert.equal(echo.runs.count - runs, 1, 'the tool ran once');
    assert.equal((await balanceOf(t.devChain.payTo)) - before, 4000n, 'paid once');
    assert.deepEqual((await record.entries()).map((e) => [e.state, e.transaction]), [['spent', paid.receipt.transaction]]);
  } finally {
    await session.close();
  }
});

test('the answer is lost while the tool still runs: the repeat waits for the first attempt and gets its stored result, paid once', { timeout: 90_000 }, async () => {
  const payer = privateKeyToAccount(await fundedPayerKey(t.devChain, '1'));
  const { balanceOf } = chainClients(t.devChain);
  const before = await balanceOf(t.devChain.payTo);
  let dropped = 0;
  // The first paid request goes out, and the connection fails at once: the gateway keeps running it.
  const losingFetch: typeof fetch = async (input, init) => {
    if (dropped === 0 && typeof init?.body === 'string' && init.body.includes('x402/payment')) {
      dropped += 1;
      void fetch(input, init).then((response) => response.arrayBuffer()).catch(() => undefined);
      throw new TypeError('fetch failed (connection lost on purpose)');
    }
    return fetch(input, init);
  };
  const record = new SpendRecord(join(home, 'spend-in-progress.json'));
  const session = new GatewaySession({ address: gatewayAddress(t.baseUrl), limits: new SpendLimits({ record }), payer: async () => payer, fetch: losingFetch });
  const runs = slowRuns;
  try {
    const paid = await session.call('test_side_effect', {});
    assert.equal(dropped, 1);
    assert.deepEqual(paid.output, { secret: 'a result that must not be delivered unpaid' });
    assert.ok(paid.receipt);
    assert.equal(slowRuns - runs, 1, 'the tool ran once');
    assert.equal((await balanceOf(t.devChain.payTo)) - before, 3000n, 'paid once');
    assert.deepEqual((await record.entries()).map((e) => [e.state, e.transaction]), [['spent', paid.receipt.transaction]]);
  } finally {
    await session.close();
  }
});

test('function-calling adapter: definitions from the discovery document; a call pays, a refusal is JSON the model can read', { timeout: 90_000 }, async () => {
  const payerKey = await fundedPayerKey(t.devChain, '1');
  const { balanceOf } = chainClients(t.devChain);
  const before = await balanceOf(t.devChain.payTo);
  const toolgate = createClient({ url: t.baseUrl, payerKey, sessionBudget: '0.004', env: { TOOLGATE_HOME: home, TOOLGATE_DATA_DIR: join(home, 'no-local-gateway') } });
  try {
    const adapter = await functionTools(toolgate);
    const echoDefinition = adapter.definitions.find((d) => d.function.name === 'test_echo');
    assert.deepEqual(echoDefinition?.function.parameters.required, ['word']);
    assert.match(echoDefinition?.function.description ?? '', /Costs 0\.004 USDC per call\./);
    const answer = JSON.parse(await adapter.run('test_echo', '{"word":"agent"}')) as { output: unknown; paid: { price: string; transaction: string } };
    assert.deepEqual(answer.output, { echo: 'agent' });
    assert.equal(answer.paid.price, '0.004');
    const refused = JSON.parse(await adapter.run('test_echo', '{"word":"again"}')) as { error: string; cap: string; price: string };
    assert.deepEqual([refused.error, refused.cap, refused.price], ['spend_refused', 'per-session', '0.004']);
    assert.equal(JSON.parse(await adapter.run('test_echo', 'not json')).error, 'invalid_arguments');
    assert.equal((toolgate as unknown as { toJSON?: unknown }).toJSON, undefined, 'not every property is a tool');
  } finally {
    await toolgate.close();
  }
  assert.equal((await balanceOf(t.devChain.payTo)) - before, 4000n);
});
