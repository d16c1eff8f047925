// Channel payments in the payment ledger, end to end on anvil with Circle's USDC and the real channel
// contracts, paid by the OFFICIAL batch-settlement client: each voucher-paid call and each deposit is
// a row (received, then claimed and settled by the collector, with the gas of every transaction),
// and x402's payment-identifier answers a channel payment's retry from the stored result.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { devPrivateKey } from '../../src/chain/dev-accounts.ts';
import { startDevChain } from '../../src/chain/devchain.ts';
import type { DevChain } from '../../src/chain/devchain.ts';
import type { ReportedPayment } from '../../src/payments/ledger/payment-reports.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { channelPayer, channelPayload, settlementOf } from '../support/channel-payer.ts';
import { chainClients, fundedPayer, readPaymentRequired } from '../support/payments.ts';
import { flakyEchoTool, heldTool } from '../support/test-tools.ts';
import { until } from '../support/until.ts';

interface DashboardMoney { usdc: string; atomic: string }
interface DashboardOverview {
  channels: {
    open: number; depositsHeld: DashboardMoney; unclaimed: DashboardMoney; nearestWithdrawDeadline: string | null;
    calls: { settled: { count: number } }; collection: { deposits: { transactions: number } };
  };
  schemes: { scheme: string; calls: number; earned: DashboardMoney; collected: DashboardMoney; cost: { gwei: number; usd: number | null }; costPerCall: { gwei: number } | null }[];
  tools: { name: string; channelCalls: number }[];
}

const PRICE = 1_000n;
const DEPOSIT = PRICE * 100n;

const { tool: wordTool, runs } = flakyEchoTool({ name: 'test_word', title: 'Word', path: '/test/word' }, { numbered: true });
const held = heldTool();

let chain: DevChain;
let t: TestGateway;
before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
  t = await startTestGateway({ devChain: chain, catalog: [wordTool, held.tool] });
});
after(async () => {
  await t?.close();
  await chain?.stop();
});

const url = (word: string, path = '/test/word') => `${t.baseUrl}${path}?word=${word}`;
const reports = () => t.gateway.ledger.reports();
const ofChannel = (list: ReportedPayment[], channelId: string) => list.filter((p) => p.channelId === channelId.toLowerCase());
const channelSettler = privateKeyToAccount(devPrivateKey('channelSettler')).address;

describe('channel payments in the ledger', () => {
  test('a deposit and its calls are rows: deposited apart, calls received; the collector claims and settles them, with the gas of each transaction', async () => {
    const payer = await fundedPayer(chain, '1');
    const { pay, sent } = channelPayer(chain, payer);
    const before = await reports().totals();
    const collectionBefore = await reports().channelCollection();
    const firstPaid = await pay(url('a'));
    assert.equal(firstPaid.status, 200);
    for (const word of ['b', 'c', 'd']) assert.equal((await pay(url(word))).status, 200);
    assert.equal((await pay(url('fail'))).status, 502);
    const deposit = channelPayload(sent[0]!.payload);
    assert.equal(deposit.type, 'deposit');
    const channelId = deposit.voucher.channelId;

    const received = ofChannel(await reports().payments({ states: ['received'], limit: 50 }), channelId);
    assert.equal(received.length, 4, 'four calls delivered, the failed one not a row');
    assert.ok(received.every((p) => p.scheme === 'batch-settlement' && p.amount === PRICE && p.tool === 'test_word' && p.payer === payer.address.toLowerCase()));
    const after = await reports().totals();
    assert.deepEqual(after.perScheme['batch-settlement'].earned, {
      amount: before.perScheme['batch-settlement'].earned.amount + 4n * PRICE, count: before.perScheme['batch-settlement'].earned.count + 4,
    });
    assert.equal(after.byState.deposited.amount - before.byState.deposited.amount, DEPOSIT, 'the deposit is a row of its own');
    assert.equal(after.revenue.amount - before.revenue.amount, 4n * PRICE, 'and not revenue');
    assert.equal(after.perScheme['batch-settlement'].collected.amount, before.perScheme['batch-settlement'].collected.amount, 'nothing collected yet');

    // The deposit row carries its transaction, and what it cost is recorded after the answer.
    const depositRow = await until(async () => ofChannel(await reports().payments({ states: ['deposited'], limit: 50 }), channelId).find((p) => p.txHash), 'the deposit row\'s transaction');
    assert.equal(depositRow.txHash, settlementOf(firstPaid).transaction);
    assert.equal(depositRow.amount, DEPOSIT);
    const receipt = await chainClients(chain).publicClient.getTransactionReceipt({ hash: depositRow.txHash as Hex });
    assert.equal(receipt.status, 'success');
    const collection = await until(async () => {
      const now = await reports().channelCollection();
      return now.deposit.transactions > collectionBefore.deposit.transactions && now;
    }, 'the deposit\'s cost');
    assert.equal(collection.deposit.gas - collectionBefore.deposit.gas, receipt.gasUsed);

    // The dashboard: what the channels hold and what is at risk, from the claims summary; the scheme's calls and revenue.
    const overview = async () => (await fetch(`${t.baseUrl}/dashboard/api/overview`)).json() as Promise<DashboardOverview>;
    const held = await overview();
    assert.equal(held.channels.open, 1);
    assert.equal(held.channels.depositsHeld.atomic, DEPOSIT.toString());
    assert.equal(held.channels.unclaimed.atomic, (4n * PRICE).toString(), 'revenue at risk until claimed');
    assert.equal(held.channels.nearestWithdrawDeadline, null);
    assert.equal(held.channels.collection.deposits.transactions, 1);
    const heldScheme = held.schemes.find((s) => s.scheme === 'batch-settlement')!;
    assert.deepEqual([heldScheme.calls, heldScheme.earned.atomic, heldScheme.collected.atomic], [4, (4n * PRICE).toString(), '0']);
    assert.deepEqual(held.tools.find((tool) => tool.name === 'test_word')?.channelCalls, 4);

    const report = await t.gateway.channels!.collector.collect();
    assert.deepEqual(report.failures, []);
    const settled = ofChannel(await reports().payments({ states: ['settled'], limit: 50 }), channelId);
    assert.equal(settled.length, 4, 'the four calls collected');
    assert.deepEqual(ofChannel(await reports().payments({ states: ['received', 'claimed'], limit: 50 }), channelId), []);
    const collected = await reports().totals();
    assert.equal(collected.perScheme['batch-settlement'].collected.amount - before.perScheme['batch-settlement'].collected.amount, report.settled);
    const costs = await reports().channelCollection();
    assert.equal(costs.claim.transactions - collectionBefore.claim.transactions, 1);
    assert.equal(costs.settle.transactions - collectionBefore.settle.transactions, 1);
    assert.equal(costs.claim.gas + costs.settle.gas - collectionBefore.claim.gas - collectionBefore.settle.gas, report.gas, 'the gas of the pass, as /metrics counts it');
    assert.equal(costs.settle.amount - collectionBefore.settle.amount, report.settled);

    // The dashboard computes its figures at most once a second, however many pages poll.
    const collectedNow = await until(async () => {
      const now = await overview();
      return now.channels.unclaimed.atomic === '0' && now;
    }, 'the figures after the collection');
    assert.equal(collectedNow.channels.calls.settled.count, 4);
    const scheme = collectedNow.schemes.find((s) => s.scheme === 'batch-settlement')!;
    assert.equal(scheme.collected.atomic, (4n * PRICE).toString());
    // The deposit, the claim and the settle, spread over the 4 calls; in gwei at a glance (no ETH price on the local chain).
    const wei = costs.deposit.feeWei + costs.claim.feeWei + costs.settle.feeWei;
    assert.equal(scheme.cost.gwei, Number((Number(wei) / 1e9).toPrecision(6)));
    assert.equal(scheme.costPerCall?.gwei, Number((Number(wei / 4n) / 1e9).toPrecision(6)));
    assert.equal(scheme.cost.usd, null);
  });
});

/** The 402 of a call, and the official client's payment for it with `id` in the payment-identifier extension. */
async function identified(client: ReturnType<typeof channelPayer>['client'], target: string, id: string): Promise<PaymentPayload> {
  const required: PaymentRequired = readPaymentRequired(await fetch(target));
  const payload = await client.createPaymentPayload(required);
  const extensions = structuredClone(required.extensions ?? {});
  appendPaymentIdentifierToExtensions(extensions, id);
  return { ...payload, extensions };
}
const send = (target: string, payload: PaymentPayload) => fetch(target, { headers: { 'payment-signature': encodePaymentSignatureHeader(payload) } });

describe('payment-identifier on channel payments', () => {
  test('a retry of a deposit or a voucher with the same identifier and payload gets the stored result and PAYMENT-RESPONSE: nothing runs, nothing is charged or sent', async () => {
    const payer = await fundedPayer(chain, '1');
    const { client, pay, sent } = channelPayer(chain, payer);
    const { publicClient } = chainClients(chain);

    const depositId = generatePaymentId();
    const deposit = await identified(client, url('one'), depositId);
    assert.equal(channelPayload(deposit).type, 'deposit');
    const first = await send(url('one'), deposit);
    assert.equal(first.status, 200);
    const firstBody = await first.json() as { run: number };
    const nonce = await publicClient.getTransactionCount({ address: channelSettler });
    const again = await send(url('one'), deposit);
    assert.equal(again.status, 200);
    assert.deepEqual(await again.json(), firstBody, 'the stored result');
    assert.equal(settlementOf(again).transaction, settlementOf(first).transaction, 'the deposit\'s transaction, as first answered');
    assert.equal(await publicClient.getTransactionCount({ address: channelSettler }), nonce, 'no second deposit');
    await client.handlePaymentResponse({ paymentPayload: deposit, requirements: deposit.accepted, settleResponse: settlementOf(again) });

    const channelId = channelPayload(deposit).voucher.channelId;
    const voucherId = generatePaymentId();
    const voucher = await identified(client, url('two'), voucherId);
    assert.equal(channelPayload(voucher).type, 'voucher');
    const paid = await send(url('two'), voucher);
    assert.equal(paid.status, 200);
    const paidBody = await paid.json() as { run: number };
    const runsAfter = runs.count;
    const charged = (await t.gateway.channels!.storage.get(channelId))?.chargedCumulativeAmount;
    assert.equal(charged, (2n * PRICE).toString());

    const retry = await send(url('two'), voucher);
    assert.equal(retry.status, 200);
    assert.deepEqual(await retry.json(), paidBody);
    assert.deepEqual(settlementOf(retry), settlementOf(paid), 'the same PAYMENT-RESPONSE: the channel state the client advances by');
    assert.equal(runs.count, runsAfter, 'the tool did not run again');
    assert.equal((await t.gateway.channels!.storage.get(channelId))?.chargedCumulativeAmount, charged, 'not charged again');
    assert.equal(ofChannel(await reports().payments({ states: ['received'], limit: 50 }), channelId).length, 2, 'one row per call paid');

    // The same identifier for other input, or for another voucher: 409, nothing run or charged.
    const otherInput = await send(url('three'), voucher);
    assert.equal(otherInput.status, 409);
    assert.match(await otherInput.text(), /payment_identifier_conflict/);
    await client.handlePaymentResponse({ paymentPayload: voucher, requirements: voucher.accepted, settleResponse: settlementOf(retry) });
    const next = await identified(client, url('two'), voucherId);
    assert.equal(channelPayload(next).voucher.maxClaimableAmount, (3n * PRICE).toString(), 'the client advanced by the replayed answer');
    const otherVoucher = await send(url('two'), next);
    assert.equal(otherVoucher.status, 409);
    assert.equal(runs.count, runsAfter);

    // The client goes on as if nothing happened: its next voucher is the one the server expects.
    const sentBefore = sent.length;
    assert.equal((await pay(url('four'))).status, 200);
    assert.equal(sent.length, sentBefore + 1, 'no corrective 402');
    assert.equal((await t.gateway.channels!.storage.get(channelId))?.chargedCumulativeAmount, (3n * PRICE).toString());
  });

  test('a retry while the first attempt runs waits for it and gets its result; the tool runs once', async () => {
    const payer = await fundedPayer(chain, '1');
    const { client, pay } = channelPayer(chain, payer);
    assert.equal((await pay(url('open', '/test/word'))).status, 200);
    const id = generatePaymentId();
    const voucher = await identified(client, url('w', '/test/held'), id);
    const runsBefore = held.runs.count;
    const first = send(url('w', '/test/held'), voucher);
    await held.started;
    const second = send(url('w', '/test/held'), voucher);
    await new Promise((resolve) => setTimeout(resolve, 300));
    held.release();
    const [a, b] = await Promise.all([first, second]);
    assert.deepEqual([a.status, b.status], [200, 200]);
    assert.deepEqual(await b.json(), await a.json());
    assert.equal(held.runs.count, runsBefore + 1);
  });

  test('a keyed call whose tool fails is released: nothing charged, and the same payment may run again', async () => {
    const payer = await fundedPayer(chain, '1');
    const { client, pay } = channelPayer(chain, payer);
    assert.equal((await pay(url('open'))).status, 200);
    const id = generatePaymentId();
    const voucher = await identified(client, url('fail'), id);
    const channelId = channelPayload(voucher).voucher.channelId;
    const runsBefore = runs.count;
    assert.equal((await send(url('fail'), voucher)).status, 502);
    assert.equal((await send(url('fail'), voucher)).status, 502, 'runs again: its first attempt charged nothing');
    assert.equal(runs.count, runsBefore + 2);
    assert.equal((await t.gateway.channels!.storage.get(channelId))?.chargedCumulativeAmount, PRICE.toString());
    assert.equal(await t.gateway.ledger.findByIdentifier(id), undefined, 'released');
  });
});
