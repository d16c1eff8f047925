// The paying side pays by payment channel (x402 batch-settlement) against a real gateway on anvil
// with Circle's USDC and the real channel contracts: real `toolgate` processes deposit once and
// continue the same channel with vouchers across invocations; payTo gets nothing until the
// gateway's collector claims; a deposit over the daily budget falls back to exact; `--scheme
// exact` pays exact; the library's and the bridge's parallel calls on one payer are all paid from one channel.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createClient } from 'toolgate/client';
import { settlementEventArgs } from '../../src/chain/batch-settlement-contracts.ts';
import { catalog } from '../../src/catalog/index.ts';
import { ChannelBook } from '../../src/client/channel-book.ts';
import { SpendRecord } from '../../src/client/spend-record.ts';
import { runToolgate, toolgateBin } from '../support/cli-process.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { chainClients, fundedPayerKey } from '../support/payments.ts';
import { countingEchoTool, sideEffectTool } from '../support/test-tools.ts';
import { until } from '../support/until.ts';

const PRICE = 1_000n; // 0.001 USDC
const DEPOSIT = PRICE * 100n; // the gateway's announced minDeposit (TOOLGATE_CHANNEL_MIN_DEPOSIT_CALLS = 100)

let t: TestGateway;
let scratch: string;
const echo = countingEchoTool('0.001');
const CHANNEL_BUSY = 'invalid_batch_settlement_evm_channel_busy';
const busyAnswers = () => t.gateway.metrics.tools().get('test_echo')?.byCode[CHANNEL_BUSY] ?? 0;
/** While set, test_side_effect holds its channel request open until the gateway has answered a test_echo call "channel busy". */
let holdUntilBusy: { above: number } | undefined;
/** test_side_effect's call is in its tool: its payment holds the channel. */
let holderRunning = false;
const holding = sideEffectTool(async () => {
  holderRunning = true;
  const deadline = Date.now() + 30_000;
  while (holdUntilBusy && busyAnswers() <= holdUntilBusy.above && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
}, '0.001');
before(async () => {
  // The real catalogue rides along: `wallet refund` sends its request through a tool with an example input.
  t = await startTestGateway({ catalog: [...catalog, echo.tool, holding] });
  scratch = await mkdtemp(join(tmpdir(), 'toolgate-channel-payer-'));
});
after(async () => {
  await t?.close();
  await rm(scratch, { recursive: true, force: true });
});

let homes = 0;
const freshHome = () => join(scratch, `home-${++homes}`);

interface PrintedReceipt {
  scheme: string;
  price: string;
  transaction: string;
  payer: string;
  channel?: { id: string; deposit?: string; charged: string; balance: string };
  fallback?: string;
}
function printed(stdout: string): { output: unknown; receipt: PrintedReceipt } {
  return JSON.parse(stdout) as { output: unknown; receipt: PrintedReceipt };
}

test('two toolgate processes pay one channel: the first deposits, the second sends a voucher; payTo gets the calls only when the gateway collects', { timeout: 120_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const payer = privateKeyToAccount(key);
  const home = freshHome();
  const env = { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: home };
  const { balanceOf, publicClient } = chainClients(t.devChain);
  const payerStart = await balanceOf(payer.address);
  await t.gateway.channels!.collector.collect(); // what earlier tests left unclaimed, so that payTo measures this test's calls
  const payToStart = await balanceOf(t.devChain.payTo);

  const first = await runToolgate(['call', 'test_echo', 'word=one', '--url', t.baseUrl, '--json'], env);
  assert.equal(first.code, 0, first.stderr);
  const one = printed(first.stdout);
  assert.deepEqual(one.output, { echo: 'one' });
  assert.equal(one.receipt.scheme, 'batch-settlement');
  assert.equal(one.receipt.channel?.deposit, '0.1', 'the deposit is the announced minDeposit');
  assert.equal(one.receipt.channel?.charged, '0.001');
  const deposit = await publicClient.getTransactionReceipt({ hash: one.receipt.transaction as Hex });
  assert.equal(deposit.status, 'success');
  assert.equal(await balanceOf(payer.address), payerStart - DEPOSIT, 'the payer put the deposit aside, nothing more');

  const second = await runToolgate(['call', 'test_echo', 'word=two', '--url', t.baseUrl], env);
  assert.equal(second.code, 0, second.stderr);
  assert.match(second.stdout, /"echo": "two"/);
  assert.match(second.stdout, new RegExp(`paid 0\\.001 USDC on local devchain from ${payer.address} .* from payment channel ${one.receipt.channel?.id}`));
  assert.match(second.stdout, /voucher: nothing on chain until the gateway collects/);
  assert.match(second.stdout, /channel: 0\.002 of 0\.1 USDC charged/, 'the second process continued the cumulative total');
  assert.equal(await balanceOf(payer.address), payerStart - DEPOSIT, 'a voucher moves nothing');
  assert.equal(await balanceOf(t.devChain.payTo), payToStart, 'nothing collected yet');

  const record = await new SpendRecord(join(home, 'spend.json')).entries();
  assert.deepEqual(
    record.map((e) => [e.amount, e.state, e.channel?.kind, e.channel?.charged]),
    [[DEPOSIT.toString(), 'spent', 'deposit', undefined], ['0', 'spent', 'voucher', '1000']],
    'the deposit counts once against the budget; the voucher adds nothing',
  );

  const listed = await runToolgate(['wallet', 'channels', '--url', t.baseUrl, '--rpc-url', t.devChain.rpcUrl, '--json'], env);
  assert.equal(listed.code, 0, listed.stderr);
  const [channel, ...others] = JSON.parse(listed.stdout) as Record<string, string>[];
  assert.equal(others.length, 0);
  assert.equal(channel?.id, one.receipt.channel?.id);
  assert.equal(channel?.gateway, t.baseUrl);
  assert.equal(channel?.deposited, '0.1');
  assert.equal(channel?.spent, '0.002');
  assert.equal(channel?.refundable, '0.098');
  assert.equal(channel?.claimed, '0', 'read from the channel contract: nothing claimed yet');

  const report = await t.gateway.channels!.collector.collect();
  assert.deepEqual(report.failures, []);
  assert.equal(await balanceOf(t.devChain.payTo), payToStart + PRICE * 2n, 'the collector claimed and settled exactly two calls');
  const after = await runToolgate(['wallet', 'channels', '--url', t.baseUrl, '--rpc-url', t.devChain.rpcUrl, '--json'], env);
  assert.equal((JSON.parse(after.stdout) as Record<string, string>[])[0]?.claimed, '0.002');
});

test('three toolgate processes at once on one open channel: all are paid (a busy channel is waited out, a moved total resynced from the state the gateway sends), cumulative totals stay right', { timeout: 120_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const env = { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: freshHome() };
  const opened = await runToolgate(['call', 'test_echo', 'word=open', '--url', t.baseUrl, '--json'], env);
  assert.equal(opened.code, 0, opened.stderr);
  const runs = await Promise.all(['a', 'b', 'c'].map((word) => runToolgate(['call', 'test_echo', `word=${word}`, '--url', t.baseUrl, '--json'], env)));
  for (const run of runs) assert.equal(run.code, 0, run.stderr);
  const charged = runs.map((run) => printed(run.stdout).receipt.channel?.charged).sort();
  assert.deepEqual(charged, ['0.002', '0.003', '0.004']);
  const channelId = printed(opened.stdout).receipt.channel!.id;
  assert.equal((await t.gateway.channels!.storage.get(channelId))?.chargedCumulativeAmount, (PRICE * 4n).toString(), 'the gateway charged four calls');
});

test('another process holds the channel: the gateway answers channel_busy, the call waits it out and is paid, not failed', { timeout: 120_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const env = { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: freshHome() };
  const opened = await runToolgate(['call', 'test_echo', 'word=open', '--url', t.baseUrl, '--json'], env);
  assert.equal(opened.code, 0, opened.stderr);
  const busyBefore = busyAnswers();
  holdUntilBusy = { above: busyBefore };
  holderRunning = false;
  try {
    const holder = runToolgate(['call', 'test_side_effect', '--url', t.baseUrl, '--json'], env);
    // The second process starts once the first one's request holds the channel (its tool is running).
    const runsBefore = echo.runs.count;
    const waiter = until(async () => holderRunning, 'the holder\'s call to be in its tool', 30_000)
      .then(() => runToolgate(['call', 'test_echo', 'word=waited', '--url', t.baseUrl, '--json'], env));
    const [held, waited] = await Promise.all([holder, waiter]);
    assert.equal(held.code, 0, held.stderr);
    assert.equal(waited.code, 0, waited.stderr);
    assert.ok(busyAnswers() > busyBefore, 'the gateway answered channel_busy at least once');
    assert.equal(echo.runs.count, runsBefore + 1, 'the waiting call ran once');
    assert.deepEqual([printed(held.stdout).receipt.channel?.charged, printed(waited.stdout).receipt.channel?.charged], ['0.002', '0.003']);
  } finally {
    holdUntilBusy = undefined;
  }
});

test('a daily budget smaller than the deposit: the call falls back to exact and says so; no channel is opened', { timeout: 90_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const home = freshHome();
  const { balanceOf } = chainClients(t.devChain);
  const payToStart = await balanceOf(t.devChain.payTo);
  const run = await runToolgate(['call', 'test_echo', 'word=small', '--url', t.baseUrl, '--daily-budget', '0.05', '--json'], { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: home });
  assert.equal(run.code, 0, run.stderr);
  const { receipt } = printed(run.stdout);
  assert.equal(receipt.scheme, 'exact');
  assert.match(receipt.fallback ?? '', /a channel deposit of 0\.1 USDC does not fit the daily budget \(0 of 0\.05 USDC used\), so this call paid with exact/);
  assert.equal(await balanceOf(t.devChain.payTo), payToStart + PRICE, 'exact: payTo has the price at once');
  assert.deepEqual(await new ChannelBook(join(home, 'channels.json')).list(), []);
  const entries = await new SpendRecord(join(home, 'spend.json')).entries();
  assert.deepEqual(entries.map((e) => [e.amount, e.state, e.channel]), [[PRICE.toString(), 'spent', undefined]]);
});

test('--scheme exact pays exact although a channel is offered', { timeout: 90_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const { balanceOf } = chainClients(t.devChain);
  const payToStart = await balanceOf(t.devChain.payTo);
  const run = await runToolgate(['call', 'test_echo', 'word=exact', '--url', t.baseUrl, '--scheme', 'exact', '--json'], { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: freshHome() });
  assert.equal(run.code, 0, run.stderr);
  const { receipt } = printed(run.stdout);
  assert.equal(receipt.scheme, 'exact');
  assert.equal(receipt.fallback, undefined);
  assert.equal(receipt.channel, undefined);
  assert.equal(await balanceOf(t.devChain.payTo), payToStart + PRICE);
  const bad = await runToolgate(['call', 'test_echo', 'word=x', '--url', t.baseUrl, '--scheme', 'cheque'], { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: freshHome() });
  assert.equal(bad.code, 2, 'an unknown scheme is bad usage');
  assert.match(bad.stderr, /--scheme must be one of exact, batch-settlement, auto/);
});

test('--dry-run says a deposit would be made and signs nothing; --deposit sizes it, never below the announced minDeposit', { timeout: 120_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const payer = privateKeyToAccount(key);
  const { balanceOf } = chainClients(t.devChain);
  const start = await balanceOf(payer.address);
  const home = freshHome();
  const env = { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: home };
  const dry = await runToolgate(['call', 'test_echo', 'word=d', '--url', t.baseUrl, '--deposit', '0.25', '--dry-run', '--json'], env);
  assert.equal(dry.code, 0, dry.stderr);
  const plan = JSON.parse(dry.stdout) as { scheme: string; channel: { deposit?: string; charged: string } };
  assert.equal(plan.scheme, 'batch-settlement');
  assert.equal(plan.channel.deposit, '0.25');
  assert.equal(await balanceOf(payer.address), start);
  assert.deepEqual(await new SpendRecord(join(home, 'spend.json')).entries(), [], 'a dry run reserves nothing');

  const bigger = await runToolgate(['call', 'test_echo', 'word=d', '--url', t.baseUrl, '--deposit', '0.25', '--json'], env);
  assert.equal(bigger.code, 0, bigger.stderr);
  assert.equal(printed(bigger.stdout).receipt.channel?.deposit, '0.25');
  assert.equal(await balanceOf(payer.address), start - 250_000n);

  const other = await fundedPayerKey(t.devChain, '1');
  const small = await runToolgate(['call', 'test_echo', 'word=d', '--url', t.baseUrl, '--deposit', '0.01', '--json'], { TOOLGATE_PAYER_KEY: other, TOOLGATE_HOME: freshHome() });
  assert.equal(small.code, 0, small.stderr);
  assert.equal(printed(small.stdout).receipt.channel?.deposit, '0.1', 'raised to the gateway\'s minDeposit');
});

test('the library: 10 parallel calls on one payer are all paid from one channel, none failed; one deposit, ten cumulative vouchers', { timeout: 120_000 }, async () => {
  const payerKey = await fundedPayerKey(t.devChain, '1');
  const payer = privateKeyToAccount(payerKey);
  const { balanceOf } = chainClients(t.devChain);
  const payerStart = await balanceOf(payer.address);
  await t.gateway.channels!.collector.collect(); // what earlier tests left unclaimed, so that payTo measures this test's calls
  const payToStart = await balanceOf(t.devChain.payTo);
  const home = freshHome();
  const toolgate = createClient({ url: t.baseUrl, payerKey, dailyBudget: '0.5', env: { TOOLGATE_HOME: home, TOOLGATE_DATA_DIR: join(home, 'no-local-gateway') } });
  try {
    const results = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => toolgate.call('test_echo', { word: `w${i}` })));
    const failed = results.filter((r) => r.status === 'rejected').map((r) => String((r as PromiseRejectedResult).reason));
    assert.deepEqual(failed, []);
    const receipts = results.map((r) => (r as PromiseFulfilledResult<Awaited<ReturnType<typeof toolgate.call>>>).value.receipt!);
    assert.ok(receipts.every((r) => r.scheme === 'batch-settlement'));
    assert.equal(new Set(receipts.map((r) => r.channel?.id)).size, 1, 'one channel');
    assert.equal(receipts.filter((r) => r.channel?.deposit !== undefined).length, 1, 'one deposit');
    const cumulative = receipts.map((r) => Math.round(Number(r.channel?.charged) * 1000)).sort((a, b) => a - b);
    assert.deepEqual(cumulative, [1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 'each voucher one price above the one before');
    assert.equal(toolgate.sessionSpent(), '0.1', 'the session counts the deposit');
  } finally {
    await toolgate.close();
  }
  assert.equal(await balanceOf(payer.address), payerStart - DEPOSIT);
  const report = await t.gateway.channels!.collector.collect();
  assert.deepEqual(report.failures, []);
  assert.equal(await balanceOf(t.devChain.payTo), payToStart + PRICE * 10n);
});

test('toolgate wallet refund: the gateway refunds the unspent part; the payer has it back on chain, the budget gets it back, the book closes the channel', { timeout: 120_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const payer = privateKeyToAccount(key);
  const home = freshHome();
  const env = { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: home };
  const { balanceOf, publicClient } = chainClients(t.devChain);
  const payerStart = await balanceOf(payer.address);
  const paid = await runToolgate(['call', 'test_echo', 'word=r', '--url', t.baseUrl, '--json'], env);
  assert.equal(paid.code, 0, paid.stderr);
  const channelId = printed(paid.stdout).receipt.channel!.id;
  assert.equal(await balanceOf(payer.address), payerStart - DEPOSIT);
  const answeredRefunded = () => t.gateway.metrics.recent().filter((e) => e.kind === 'refunded').length;
  const refundedBefore = answeredRefunded();

  const wrong = await runToolgate(['wallet', 'refund', '--channel', `0x${'ab'.repeat(32)}`, '--url', t.baseUrl], env);
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, new RegExp(`is not the channel of ${privateKeyToAccount(key).address} with this gateway \\(that is ${channelId}\\)`));

  const refund = await runToolgate(['wallet', 'refund', '--channel', channelId, '--url', t.baseUrl, '--json'], env);
  assert.equal(refund.code, 0, refund.stderr);
  const said = JSON.parse(refund.stdout) as { channel: string; refunded: string; transaction: Hex };
  assert.equal(said.channel, channelId);
  assert.equal(said.refunded, '0.099');
  const receipt = await publicClient.getTransactionReceipt({ hash: said.transaction });
  assert.deepEqual(settlementEventArgs(receipt, 'Refunded').map((e) => [String(e.channelId).toLowerCase(), e.amount]), [[channelId.toLowerCase(), DEPOSIT - PRICE]]);
  assert.equal(await balanceOf(payer.address), payerStart - PRICE, 'the payer has the unspent part back: the call is all it paid');
  assert.equal(answeredRefunded(), refundedBefore + 1, 'the gateway answered the carrier call with the refund, not with the tool');

  // The budget: the deposit entry shrinks to what was spent.
  const record = await new SpendRecord(join(home, 'spend.json')).entries();
  assert.deepEqual(record.map((e) => [e.amount, e.channel?.kind, e.channel?.refunded]), [[PRICE.toString(), 'deposit', (DEPOSIT - PRICE).toString()]]);
  const listed = JSON.parse((await runToolgate(['wallet', 'channels', '--json'], env)).stdout) as Record<string, string>[];
  assert.equal(listed[0]?.state, 'closed');
  assert.equal(listed[0]?.refunded, '0.099');
  assert.equal(listed[0]?.refundable, '0');

  // Nothing left: asked again, the command says so and sends nothing.
  const again = await runToolgate(['wallet', 'refund', '--url', t.baseUrl], env);
  assert.equal(again.code, 1);
  assert.match(again.stderr, /nothing to refund on channel/);

  // The next call deposits into the same channel again and is paid.
  const next = await runToolgate(['call', 'test_echo', 'word=s', '--url', t.baseUrl, '--json'], env);
  assert.equal(next.code, 0, next.stderr);
  assert.equal(printed(next.stdout).receipt.channel?.deposit, '0.1');
  assert.equal(await balanceOf(payer.address), payerStart - PRICE - DEPOSIT);
});

test('a channel the gateway refunded on its own (as it does idle ones): the next call notices, the budget gets the refund back, the call tops the channel up and is paid', { timeout: 120_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const payer = privateKeyToAccount(key);
  const home = freshHome();
  const env = { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: home };
  const { balanceOf } = chainClients(t.devChain);
  const payerStart = await balanceOf(payer.address);
  for (const word of ['i1', 'i2']) assert.equal((await runToolgate(['call', 'test_echo', `word=${word}`, '--url', t.baseUrl], env)).code, 0);
  const channelId = (await new SpendRecord(join(home, 'spend.json')).entries())[0]!.channel!.id;

  // What the idle refunder does (its own test is in payment-channels.test.ts): the SDK manager's refund.
  const [refunded] = await t.gateway.channels!.manager.refund([channelId]);
  assert.ok(refunded, 'refunded');
  assert.equal(await balanceOf(payer.address), payerStart - PRICE * 2n);

  const next = await runToolgate(['call', 'test_echo', 'word=i3', '--url', t.baseUrl, '--json'], env);
  assert.equal(next.code, 0, next.stderr);
  const { receipt } = printed(next.stdout);
  assert.equal(receipt.channel?.id, channelId, 'the same channel');
  assert.equal(receipt.channel?.deposit, '0.1', 'topped up');
  assert.equal(receipt.channel?.charged, '0.003', 'the cumulative total goes on');
  assert.equal(await balanceOf(payer.address), payerStart - PRICE * 2n - DEPOSIT);
  const record = await new SpendRecord(join(home, 'spend.json')).entries();
  assert.deepEqual(
    record.filter((e) => e.channel?.kind === 'deposit').map((e) => [e.amount, e.channel?.refunded]),
    [[(PRICE * 2n).toString(), (DEPOSIT - PRICE * 2n).toString()], [DEPOSIT.toString(), undefined]],
    'the first deposit counts only what was spent of it; the top-up counts in full',
  );
});

test('the bridge (toolgate mcp, spawned by the MCP SDK client): 5 parallel calls are all paid from one channel, none shown as failed; receipts in _meta', { timeout: 120_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [toolgateBin, 'mcp', '--url', `${t.baseUrl}/mcp`],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: freshHome() },
    cwd: scratch, // not the checkout, where `npm start` may have left a .toolgate/devchain.json
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const mcp = new Client({ name: 'desktop-agent', version: '1.0.0' });
  await mcp.connect(transport);
  try {
    const results = (await Promise.all(['a', 'b', 'c', 'd', 'e'].map((word) => mcp.callTool({ name: 'test_echo', arguments: { word } })))) as CallToolResult[];
    for (const result of results) assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.deepEqual(results.map((r) => (r.structuredContent as { echo: string }).echo), ['a', 'b', 'c', 'd', 'e']);
    const receipts = results.map((r) => r._meta?.['toolgate/receipt'] as PrintedReceipt);
    assert.ok(receipts.every((r) => r.scheme === 'batch-settlement'));
    assert.equal(receipts.filter((r) => r.channel?.deposit === '0.1').length, 1, 'one deposit');
    assert.deepEqual(receipts.map((r) => r.channel?.charged).sort(), ['0.001', '0.002', '0.003', '0.004', '0.005']);
    for (const r of results) assert.equal((r._meta?.['x402/payment-response'] as { success: boolean }).success, true);
    assert.equal(stderr.match(/test_echo: paid 0\.001 USDC from payment channel 0x[0-9a-f]{64} \(voucher;/g)?.length, 4, stderr);
  } finally {
    await mcp.close();
  }
});
