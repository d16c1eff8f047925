// Two gateway instances on one PostgreSQL serving one payer's channel (issue 23, point 5): the
// official client's calls alternate between them, the vouchers form one continuous sequence, the
// claims of both collectors started together send one claim transaction, and two calls at once on
// one channel through the two instances run one tool and charge once. A real server (a throwaway
// cluster), a real anvil with Circle's USDC and the real channel contracts.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import pg from 'pg';
import { privateKeyToAccount } from 'viem/accounts';
import { z } from 'zod';
import type { Tool } from '../../src/catalog/tool.ts';
import { defineTool } from '../../src/catalog/tool.ts';
import { devPrivateKey } from '../../src/chain/dev-accounts.ts';
import { startDevChain } from '../../src/chain/devchain.ts';
import type { DevChain } from '../../src/chain/devchain.ts';
import { channelPayer, channelPayload, claimedSince, settlementOf } from '../support/channel-payer.ts';
import { until } from '../support/until.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { chainClients, fundedPayer, readPaymentRequired } from '../support/payments.ts';
import { startPostgres } from '../support/postgres-server.ts';
import type { PostgresServer } from '../support/postgres-server.ts';
import { countingEchoTool } from '../support/test-tools.ts';

const PRICE = 1_000n;
const CALLS = 10;

/** A paid tool that holds each run until the test lets it go. */
function heldTool() {
  const state = { runs: 0, running: 0, release: () => {} };
  let gate = Promise.resolve();
  const tool = defineTool({
    name: 'test_held',
    title: 'Held',
    description: 'Answers when the test releases it.',
    price: '0.001',
    http: [{ method: 'GET', path: '/test/held' }],
    input: z.object({}),
    example: {},
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler() {
      state.runs += 1;
      state.running += 1;
      await gate;
      state.running -= 1;
      return { released: true };
    },
  });
  const hold = () => {
    gate = new Promise<void>((resolve) => (state.release = resolve));
  };
  return { tool: tool as Tool, state, hold };
}

let server: PostgresServer;
let chain: DevChain;
let one: TestGateway;
let two: TestGateway;
let databaseUrl: string;
const echo = countingEchoTool();
const held = heldTool();
const channelSettler = privateKeyToAccount(devPrivateKey('channelSettler')).address;

before(async () => {
  [server, chain] = await Promise.all([startPostgres(), startDevChain({ tokenName: 'USD Coin' })]);
  // Neither collector claims on its own: the test starts both claims.
  databaseUrl = await server.createDatabase('channels');
  const env = { TOOLGATE_DATABASE_URL: databaseUrl, TOOLGATE_CHANNEL_CLAIM_INTERVAL_S: '3600' };
  [one, two] = await Promise.all([
    startTestGateway({ devChain: chain, catalog: [echo.tool, held.tool], env }),
    startTestGateway({ devChain: chain, catalog: [echo.tool, held.tool], env }),
  ]);
});
after(async () => {
  await one?.close();
  await two?.close();
  await chain?.stop();
  await server?.stop();
});

test('calls alternating between two instances: one voucher sequence, each answer right; both claiming at once send one claim', async (context) => {
  const { balanceOf, publicClient } = chainClients(chain);
  const payer = await fundedPayer(chain, '1');
  const { pay, sent } = channelPayer(chain, payer);
  const payToStart = await balanceOf(chain.payTo);
  const runsBefore = echo.runs.count;
  const bases = [one.baseUrl, two.baseUrl];

  for (let call = 1; call <= CALLS; call++) {
    const base = bases[call % 2]!;
    const response = await pay(`${base}/test/echo?word=w${call}`);
    assert.equal(response.status, 200, `call ${call}`);
    assert.deepEqual(await response.json(), { echo: `w${call}` });
    const payment = sent.at(-1)!;
    assert.ok(payment.url.startsWith(base), `call ${call} paid at the instance it was sent to`);
    const { type, voucher } = channelPayload(payment.payload);
    assert.equal(type, call === 1 ? 'deposit' : 'voucher');
    assert.equal(BigInt(voucher.maxClaimableAmount), PRICE * BigInt(call), `call ${call}: the voucher continues the sequence`);
    const settlement = settlementOf(response);
    assert.equal(settlement.success, true);
    if (call > 1) assert.equal(settlement.transaction, '');
    assert.equal(settlement.extra?.chargedAmount, PRICE.toString());
    assert.equal((settlement.extra?.channelState as { chargedCumulativeAmount?: string }).chargedCumulativeAmount, (PRICE * BigInt(call)).toString());
  }
  assert.equal(sent.length, CALLS, 'one payment per call: neither instance asked for a corrective one');
  assert.equal(echo.runs.count - runsBefore, CALLS);
  const channelId = channelPayload(sent[0]!.payload).voucher.channelId;
  for (const g of [one, two]) assert.equal((await g.gateway.channels!.storage.get(channelId))?.chargedCumulativeAmount, (PRICE * BigInt(CALLS)).toString());

  const fromBlock = (await publicClient.getBlockNumber()) + 1n;
  const nonceBefore = await publicClient.getTransactionCount({ address: channelSettler });
  const reports = await Promise.all([one, two].map((g) => g.gateway.channels!.collector.collect()));
  context.diagnostic(`claims started together: ${JSON.stringify(reports.map((r) => ({ vouchers: r.claimedVouchers, claimed: r.claimed.toString(), failures: r.failures.length })))}`);
  assert.deepEqual(reports.flatMap((r) => r.failures), []);
  assert.equal(reports.reduce((n, r) => n + r.claimedVouchers, 0), 1, 'one voucher claimed, by one instance');
  assert.equal(reports.reduce((sum, r) => sum + r.claimed, 0n), PRICE * BigInt(CALLS));
  const claims = await claimedSince(chain, fromBlock);
  assert.deepEqual(claims.map((c) => [c.channelId, c.claimAmount, c.newTotalClaimed]), [[channelId, PRICE * BigInt(CALLS), PRICE * BigInt(CALLS)]]);
  assert.equal(await publicClient.getTransactionCount({ address: channelSettler }), nonceBefore + 2, 'one claim and one settle sent: no second claim, reverted or not');
  assert.equal(await balanceOf(chain.payTo), payToStart + PRICE * BigInt(CALLS));
});

test('one voucher sent to both instances while the first runs its tool: the other answers channel busy; one run, one charge', async () => {
  const payer = await fundedPayer(chain, '1');
  const { pay, client, sent } = channelPayer(chain, payer);
  assert.equal((await pay(`${one.baseUrl}/test/echo?word=open`)).status, 200);
  const channelId = channelPayload(sent[0]!.payload).voucher.channelId;
  const storage = one.gateway.channels!.storage;

  const required = readPaymentRequired(await fetch(`${one.baseUrl}/test/held`));
  const payload = await client.createPaymentPayload(required);
  assert.equal(channelPayload(payload).voucher.maxClaimableAmount, (PRICE * 2n).toString());
  const header = encodePaymentSignatureHeader(payload);
  held.hold();
  const runsBefore = held.state.runs;
  const first = fetch(`${one.baseUrl}/test/held`, { headers: { 'payment-signature': header } });
  await until(async () => held.state.running === 1, 'the first call to run its tool');
  const second = await fetch(`${two.baseUrl}/test/held`, { headers: { 'payment-signature': header } });
  assert.equal(second.status, 402);
  assert.match(readPaymentRequired(second).error ?? '', /^invalid_batch_settlement_evm_channel_busy: /);
  assert.equal(second.headers.get('payment-response'), null);
  held.state.release();
  const answer = await first;
  assert.equal(answer.status, 200);
  assert.equal(settlementOf(answer).success, true);
  assert.equal(held.state.runs - runsBefore, 1, 'the tool ran once');
  assert.equal((await storage.get(channelId))?.chargedCumulativeAmount, (PRICE * 2n).toString(), 'charged once');

  // The same voucher again, now that the first is done, is stale on either instance.
  for (const g of [one, two]) {
    const replay = await fetch(`${g.baseUrl}/test/held`, { headers: { 'payment-signature': header } });
    assert.equal(replay.status, 402);
    assert.match(readPaymentRequired(replay).error ?? '', /cumulative_amount_mismatch/);
  }
  assert.equal(held.state.runs - runsBefore, 1);
  await client.handlePaymentResponse({ paymentPayload: payload, requirements: payload.accepted, settleResponse: settlementOf(answer) });
  assert.equal((await pay(`${two.baseUrl}/test/echo?word=after`)).status, 200, 'the channel goes on at the other instance');
  assert.equal((await storage.get(channelId))?.chargedCumulativeAmount, (PRICE * 3n).toString());
});

test('a claim confirmed on chain but not recorded (a crash between the two): the next pass claims nothing twice, the record heals, claims go on', async (context) => {
  const { balanceOf } = chainClients(chain);
  const collector = one.gateway.channels!.collector;
  await collector.collect(); // what the tests before left
  const payer = await fundedPayer(chain, '1');
  const { pay, sent } = channelPayer(chain, payer);
  for (const word of ['a', 'b', 'c']) assert.equal((await pay(`${one.baseUrl}/test/echo?word=${word}`)).status, 200);
  const channelId = channelPayload(sent[0]!.payload).voucher.channelId;
  const payToStart = await balanceOf(chain.payTo);
  assert.equal((await collector.collect()).claimed, PRICE * 3n);

  // What a kill -9 right after the claim's receipt leaves: the chain has it, the record does not.
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('UPDATE channels SET total_claimed = 0 WHERE channel_id = $1', [channelId.toLowerCase()]);
  } finally {
    await db.end();
  }
  const again = await collector.collect();
  context.diagnostic(`pass after the lost record: ${JSON.stringify({ vouchers: again.claimedVouchers, claimed: again.claimed.toString(), failures: again.failures })}`);
  // Measured: the contract takes a claim of a total it already has as a no-op (no Claimed event, no
  // revert), so the stale record costs one wasted claim entry and a logged failure, not the batch.
  assert.equal(again.failures.length, 1);
  assert.match(again.failures[0]!, /no Claimed event/);
  assert.equal(again.claimed, 0n, 'nothing claimed twice');
  assert.equal((await one.gateway.channels!.storage.get(channelId))?.totalClaimed, (PRICE * 3n).toString(), 'the record learns the chain\'s total');

  assert.equal((await pay(`${two.baseUrl}/test/echo?word=d`)).status, 200);
  const next = await collector.collect();
  assert.deepEqual(next.failures, []);
  assert.equal(next.claimed, PRICE, 'only the new voucher');
  assert.equal(await balanceOf(chain.payTo), payToStart + PRICE * 4n);
});

test('a claim whose settle never came (cut off, or sent by another instance that died): the next pass of either instance settles it', async () => {
  const { balanceOf } = chainClients(chain);
  await one.gateway.channels!.collector.collect(); // what the tests before left
  const payer = await fundedPayer(chain, '1');
  const { pay } = channelPayer(chain, payer);
  for (const word of ['a', 'b']) assert.equal((await pay(`${one.baseUrl}/test/echo?word=${word}`)).status, 200);
  const payToStart = await balanceOf(chain.payTo);
  // Claimed through the SDK's manager alone, as a collector killed between its claim and its settle leaves it.
  const [claimed] = await one.gateway.channels!.manager.claim();
  assert.equal(claimed?.vouchers, 1);
  assert.equal(await balanceOf(chain.payTo), payToStart, 'claimed, not settled');

  const report = await two.gateway.channels!.collector.collect();
  assert.deepEqual(report.failures, []);
  assert.equal(report.claimedVouchers, 0);
  assert.equal(report.settled, PRICE * 2n, 'the settle the claim was owed');
  assert.equal(await balanceOf(chain.payTo), payToStart + PRICE * 2n);
  const quiet = await two.gateway.channels!.collector.collect();
  assert.equal(quiet.settleTransaction, undefined, 'nothing owed: no settle sent');
});

test('one channel whose claim reverts does not hold back the others: they are claimed one by one', async () => {
  const { balanceOf } = chainClients(chain);
  const collector = one.gateway.channels!.collector;
  await collector.collect(); // what the tests before left
  const [bad, good] = await Promise.all([fundedPayer(chain, '1'), fundedPayer(chain, '1')]);
  const badPayer = channelPayer(chain, bad);
  const goodPayer = channelPayer(chain, good);
  for (const word of ['a', 'b']) {
    assert.equal((await badPayer.pay(`${one.baseUrl}/test/echo?word=${word}`)).status, 200);
    assert.equal((await goodPayer.pay(`${two.baseUrl}/test/echo?word=${word}`)).status, 200);
  }
  // A charge beyond what the voucher signs (as a voucher beyond a balance a withdrawal shrank would be): its claim reverts.
  const badId = channelPayload(badPayer.sent[0]!.payload).voucher.channelId.toLowerCase();
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  try {
    await db.query('UPDATE channels SET charged_cumulative_amount = signed_max_claimable + 1 WHERE channel_id = $1', [badId]);
  } finally {
    await db.end();
  }
  const payToStart = await balanceOf(chain.payTo);
  const report = await collector.collect();
  assert.equal(report.claimed, PRICE * 2n, "the good channel's vouchers");
  assert.equal(report.settled, PRICE * 2n);
  assert.ok(report.failures.some((f) => f.startsWith(`claim ${badId}:`)), JSON.stringify(report.failures));
  assert.equal(await balanceOf(chain.payTo), payToStart + PRICE * 2n);
});
