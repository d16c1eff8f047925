// Payment channels (x402 batch-settlement) through the gateway, end to end on anvil with Circle's
// USDC and the real channel contracts: the OFFICIAL @x402/fetch client with only the official
// batch-settlement client scheme registered (so it takes the channel offer) pays a paid GET tool,
// the gateway's collector claims and settles, the SDK's channel manager refunds the rest; the
// official client's own cooperative refund request is served (HTTP and MCP), refused when it is
// wrong without a transaction, and idle channels are refunded by the gateway on its own.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { encodePaymentSignatureHeader } from '@x402/core/http';
import type { Network, PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { x402Facilitator } from '@x402/core/facilitator';
import { toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme as FacilitatorScheme } from '@x402/evm/batch-settlement/facilitator';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { signVoucher } from '@x402/evm/batch-settlement/client';
import { z } from 'zod';
import { parseEventLogs } from 'viem';
import type { Hex, PrivateKeyAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Tool } from '../../src/catalog/tool.ts';
import { defineTool } from '../../src/catalog/tool.ts';
import { BATCH_SETTLEMENT_ADDRESSES, batchSettlementAbi, settlementEventArgs } from '../../src/chain/batch-settlement-contracts.ts';
import { devPrivateKey } from '../../src/chain/dev-accounts.ts';
import { fundDevAccounts, startDevChain } from '../../src/chain/devchain.ts';
import type { DevChain } from '../../src/chain/devchain.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { channelPayer, channelPayload, settlementOf } from '../support/channel-payer.ts';
import { sample } from '../support/prometheus-text.ts';
import { localFacilitatorSigner } from '../support/official-facilitator.ts';
import { chainClients, fundedPayer, readPaymentRequired } from '../support/payments.ts';
import { flakyEchoTool, sideEffectTool } from '../support/test-tools.ts';
import { until } from '../support/until.ts';
import { malleateSignature } from '../../src/payments/facilitator/signature.ts';
import type { DashboardData } from '../../src/faces/dashboard/dashboard-data.ts';

/** /dashboard/api/overview's JSON, as the dashboard's data gives it. */
type DashboardOverview = Awaited<ReturnType<DashboardData['overview']>>;

const PRICE = 1_000n; // 0.001 USDC
const DEPOSIT = PRICE * 100n; // TOOLGATE_CHANNEL_MIN_DEPOSIT_CALLS' default

/** A one-dollar tool: a voucher for it is far over a deposit made at the cheap tool's price. */
const dearTool = defineTool({
  name: 'test_dear',
  title: 'Dear',
  description: 'Costs a dollar.',
  price: '1',
  http: [{ method: 'GET', path: '/test/dear' }],
  input: z.object({}),
  example: {},
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler() {
    dearRuns.count += 1;
    return { ok: true };
  },
}) as Tool;
const dearRuns = { count: 0 };

let chain: DevChain;
let t: TestGateway;
const flaky = flakyEchoTool({ name: 'test_flaky', title: 'Flaky', path: '/test/flaky' });
/** While set, test_side_effect holds its call (and its channel) until it resolves. */
let hold: Promise<void> | undefined;
let holding = false;
const holdingTool = sideEffectTool(async () => {
  holding = true;
  try {
    await hold;
  } finally {
    holding = false;
  }
});

before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
  t = await startTestGateway({ devChain: chain, catalog: [flaky.tool, dearTool, holdingTool] });
});
after(async () => {
  await t?.close();
  await chain?.stop();
});

const channelSettler = privateKeyToAccount(devPrivateKey('channelSettler')).address;

const metricsText = async () => (await fetch(`${t.baseUrl}/metrics`)).text();

test('a deposit, 20 vouchers, one claim and settle, a cooperative refund: payTo gets exactly 21 prices, the payer the rest', async () => {
  const channels = t.gateway.channels;
  assert.ok(channels, 'channels are offered by default');
  const { balanceOf, publicClient } = chainClients(chain);
  const payer = await fundedPayer(chain, '1');
  const { pay, sent } = channelPayer(chain, payer);
  const payerStart = await balanceOf(payer.address);
  const payToStart = await balanceOf(chain.payTo);

  const first = await pay(`${t.baseUrl}/test/flaky?word=w0`);
  assert.equal(first.status, 200);
  assert.deepEqual(await first.json(), { echo: 'w0' });
  const deposit = channelPayload(sent[0]!.payload);
  assert.equal(deposit.type, 'deposit');
  assert.equal(deposit.deposit?.amount, DEPOSIT.toString(), 'the deposit is the announced minDeposit: 100 calls');
  const channelId = deposit.voucher.channelId;
  const depositSettlement = settlementOf(first);
  assert.equal(depositSettlement.success, true);
  const depositReceipt = await publicClient.getTransactionReceipt({ hash: depositSettlement.transaction as Hex });
  assert.equal(depositReceipt.status, 'success');
  const [deposited] = settlementEventArgs(depositReceipt, 'Deposited');
  assert.equal(deposited?.channelId, channelId);
  assert.equal(deposited?.amount, DEPOSIT);
  assert.equal(await balanceOf(payer.address), payerStart - DEPOSIT);

  const settlerNonce = await publicClient.getTransactionCount({ address: channelSettler });
  for (let call = 2; call <= 21; call++) {
    const response = await pay(`${t.baseUrl}/test/flaky?word=w${call}`);
    assert.equal(response.status, 200, `call ${call}`);
    assert.deepEqual(await response.json(), { echo: `w${call}` });
    const settlement = settlementOf(response);
    assert.equal(settlement.success, true);
    assert.equal(settlement.transaction, '', 'a voucher sends no transaction');
    const voucher = channelPayload(sent.at(-1)!.payload);
    assert.equal(voucher.type, 'voucher');
    assert.equal(BigInt(voucher.voucher.maxClaimableAmount), PRICE * BigInt(call), 'cumulative');
  }
  assert.equal(sent.length, 21, 'one payment per call: no corrective round trip');
  assert.equal(await publicClient.getTransactionCount({ address: channelSettler }), settlerNonce, 'the vouchers sent nothing on chain');
  assert.equal(await balanceOf(chain.payTo), payToStart, 'nothing collected yet');

  // /metrics: what the channels hold, and the revenue at risk until it is claimed.
  const before = await metricsText();
  assert.equal(sample(before, 'toolgate_channels_open'), 1);
  assert.equal(sample(before, 'toolgate_channel_deposits_usdc'), Number(DEPOSIT) / 1e6);
  assert.equal(sample(before, 'toolgate_channel_unclaimed_usdc'), Number(PRICE * 21n) / 1e6);
  assert.equal(sample(before, 'toolgate_channel_vouchers_total', { check: 'local' }), 20, 'every voucher after the deposit took our local check');

  const report = await channels.collector.collect();
  assert.deepEqual(report.failures, []);
  assert.equal(report.claimed, PRICE * 21n, 'the Claimed event');
  assert.equal(report.settled, PRICE * 21n, 'the Settled event');
  assert.equal(await balanceOf(chain.payTo), payToStart + PRICE * 21n);
  assert.ok(report.gas > 100_000n && report.gas < 200_000n, `claim + settle gas: ${report.gas}`);
  const after = await metricsText();
  assert.equal(sample(after, 'toolgate_channel_unclaimed_usdc'), 0);
  assert.equal(sample(after, 'toolgate_channel_collected_usdc_total', { step: 'claimed' }), Number(PRICE * 21n) / 1e6);
  assert.equal(sample(after, 'toolgate_channel_collected_usdc_total', { step: 'settled' }), Number(PRICE * 21n) / 1e6);
  assert.equal(sample(after, 'toolgate_channel_collection_gas_total'), Number(report.gas));

  const refunds = await channels.manager.refund([channelId]);
  assert.equal(refunds.length, 1);
  const refundReceipt = await publicClient.getTransactionReceipt({ hash: refunds[0]!.transaction as Hex });
  assert.equal(settlementEventArgs(refundReceipt, 'Refunded')[0]?.amount, DEPOSIT - PRICE * 21n);
  assert.equal(await balanceOf(payer.address), payerStart - PRICE * 21n);
});

test('a tool that fails after its voucher was accepted is not charged: the next voucher repeats the amount, the claim excludes it', async () => {
  const channels = t.gateway.channels!;
  const { balanceOf } = chainClients(chain);
  const payer = await fundedPayer(chain, '1');
  const { pay, sent } = channelPayer(chain, payer);
  const payToStart = await balanceOf(chain.payTo);

  assert.equal((await pay(`${t.baseUrl}/test/flaky?word=a`)).status, 200);
  const channelId = channelPayload(sent[0]!.payload).voucher.channelId;
  const runs = flaky.runs.count;
  const failed = await pay(`${t.baseUrl}/test/flaky?word=fail`);
  assert.equal(failed.status, 502);
  assert.equal(failed.headers.get('payment-response'), null);
  assert.equal(flaky.runs.count, runs + 1, 'the tool ran, after the voucher was accepted');
  const failedVoucher = channelPayload(sent.at(-1)!.payload);
  assert.equal(failedVoucher.voucher.maxClaimableAmount, (PRICE * 2n).toString());

  const next = await pay(`${t.baseUrl}/test/flaky?word=b`);
  assert.equal(next.status, 200);
  const nextVoucher = channelPayload(sent.at(-1)!.payload);
  assert.equal(nextVoucher.voucher.maxClaimableAmount, (PRICE * 2n).toString(), 'the same cumulative amount, accepted');
  assert.equal((await channels.storage.get(channelId))?.chargedCumulativeAmount, (PRICE * 2n).toString());

  const report = await channels.collector.collect();
  assert.deepEqual(report.failures, []);
  assert.equal(report.claimed, PRICE * 2n, 'two calls delivered, two claimed');
  assert.equal(await balanceOf(chain.payTo), payToStart + PRICE * 2n);
});

test('a voucher signed by someone else, one with a high-s signature, one over the deposit, and a replayed one: 402 with the scheme\'s reason, the tool not run', async () => {
  const payer = await fundedPayer(chain, '1');
  const { pay, sent } = channelPayer(chain, payer);
  assert.equal((await pay(`${t.baseUrl}/test/flaky?word=a`)).status, 200);
  assert.equal((await pay(`${t.baseUrl}/test/flaky?word=b`)).status, 200);
  const [depositSent, secondSent] = sent;
  const { channelConfig, voucher } = channelPayload(depositSent!.payload);
  const charged = PRICE * 2n;
  const { publicClient } = chainClients(chain);

  async function offer(path: string): Promise<PaymentRequirements> {
    const unpaid = await fetch(`${t.baseUrl}${path}`);
    assert.equal(unpaid.status, 402);
    const offered = readPaymentRequired(unpaid).accepts.find((a) => a.scheme === 'batch-settlement');
    assert.ok(offered);
    return offered;
  }
  async function sendVoucher(path: string, accepted: PaymentRequirements, signer: PrivateKeyAccount, amount: bigint, tamper = (signature: Hex) => signature): Promise<{ status: number; required: PaymentRequired }> {
    const signed = await signVoucher(toClientEvmSigner(signer, publicClient as never), voucher.channelId, amount.toString(), chain.network);
    const payload: PaymentPayload = { x402Version: 2, accepted, payload: { type: 'voucher', channelConfig, voucher: { ...signed, signature: tamper(signed.signature) } } };
    const response = await fetch(`${t.baseUrl}${path}`, { headers: { 'payment-signature': encodePaymentSignatureHeader(payload) } });
    return { status: response.status, required: readPaymentRequired(response) };
  }

  const runs = flaky.runs.count;
  const cheap = await offer('/test/flaky?word=x');
  const forged = await sendVoucher('/test/flaky?word=x', cheap, privateKeyToAccount(generatePrivateKey()), charged + PRICE);
  assert.equal(forged.status, 402);
  assert.match(forged.required.error ?? '', /^invalid_batch_settlement_evm_voucher_signature: /);
  // The payer's own key, the right amount, s mirrored: viem (the SDK's check) recovers the payer, the
  // channel contract would refuse it at claim time and revert the whole claim.
  const malleated = await sendVoucher('/test/flaky?word=x', cheap, payer, charged + PRICE, malleateSignature);
  assert.equal(malleated.status, 402);
  assert.match(malleated.required.error ?? '', /^invalid_batch_settlement_evm_voucher_signature: .*high s/);

  const dearRunsBefore = dearRuns.count;
  const over = await sendVoucher('/test/dear', await offer('/test/dear'), payer, charged + 1_000_000n);
  assert.equal(over.status, 402);
  assert.match(over.required.error ?? '', /^invalid_batch_settlement_evm_cumulative_exceeds_balance: /);
  assert.equal(dearRuns.count, dearRunsBefore);

  const replay = await fetch(`${t.baseUrl}/test/flaky?word=x`, { headers: { 'payment-signature': secondSent!.header } });
  assert.equal(replay.status, 402);
  const replayRequired = readPaymentRequired(replay);
  assert.equal(replayRequired.error, 'invalid_batch_settlement_evm_cumulative_amount_mismatch', 'the bare code, which the official client resyncs on');
  // The corrective 402: the SDK's channel state, added to our offer, tells the client where it stands.
  const state = replayRequired.accepts.find((a) => a.scheme === 'batch-settlement')?.extra.channelState as { chargedCumulativeAmount?: string } | undefined;
  assert.equal(state?.chargedCumulativeAmount, charged.toString());
  assert.equal(flaky.runs.count, runs, 'the tool never ran');

  // The channel is not left busy by any of them: the payer's next call goes through.
  assert.equal((await pay(`${t.baseUrl}/test/flaky?word=c`)).status, 200);
});

test('the official client that lost its channel state (restarted, or a second process on one key) is set right by the corrective 402 and goes on', async () => {
  const payer = await fundedPayer(chain, '1');
  const first = channelPayer(chain, payer);
  for (const word of ['a', 'b', 'c']) assert.equal((await first.pay(`${t.baseUrl}/test/flaky?word=${word}`)).status, 200);
  // A fresh client on the same key: the same channel (same config and salt), its state read from the chain (nothing claimed yet).
  const restarted = channelPayer(chain, payer);
  const resumed = await restarted.pay(`${t.baseUrl}/test/flaky?word=d`);
  assert.equal(resumed.status, 200, await resumed.clone().text());
  assert.deepEqual(restarted.sent.map((s) => channelPayload(s.payload).voucher.maxClaimableAmount), [PRICE.toString(), (PRICE * 4n).toString()],
    'a voucher from the chain\'s state, refused with the channel\'s own, then the right one');
  // The first client is now one call behind; it is set right the same way.
  const behind = await first.pay(`${t.baseUrl}/test/flaky?word=e`);
  assert.equal(behind.status, 200, await behind.clone().text());
  assert.equal(channelPayload(first.sent.at(-1)!.payload).voucher.maxClaimableAmount, (PRICE * 5n).toString());
});

test('a batch-settlement payload of the wrong shape is refused with 400 before anything is verified; the tool does not run', async () => {
  const offered = readPaymentRequired(await fetch(`${t.baseUrl}/test/flaky?word=x`)).accepts.find((a) => a.scheme === 'batch-settlement')!;
  const runs = flaky.runs.count;
  for (const [payload, problem] of [
    [{ type: 'voucher', channelConfig: { payer: 'nope' }, voucher: {} }, /^invalid_payload: payload\.channelConfig\.payer: expected a 20-byte hex address/],
    [{ type: 'claim', claims: [] }, /^invalid_payload: payload\.type: expected type "deposit", "voucher" or "refund"/],
  ] as const) {
    const header = encodePaymentSignatureHeader({ x402Version: 2, accepted: offered, payload: payload as unknown as Record<string, unknown> });
    const response = await fetch(`${t.baseUrl}/test/flaky?word=x`, { headers: { 'payment-signature': header } });
    assert.equal(response.status, 400);
    assert.match(readPaymentRequired(response).error ?? '', problem);
  }
  assert.equal(flaky.runs.count, runs);
});

test('every 402, HTTP and MCP, offers exact first and batch-settlement second at the same amount', async () => {
  const unpaid = await fetch(`${t.baseUrl}/test/flaky?word=x`);
  const http = readPaymentRequired(unpaid).accepts;
  assert.deepEqual(http.map((a) => a.scheme), ['exact', 'batch-settlement']);
  assert.equal(http[1]!.amount, http[0]!.amount);
  assert.equal(http[1]!.extra.minDeposit, (PRICE * 100n).toString());
  assert.equal(http[1]!.extra.withdrawDelay, 86_400);
  assert.equal(http[1]!.extra.receiverAuthorizer, privateKeyToAccount(devPrivateKey('receiverAuthorizer')).address);

  const client = new Client({ name: 'toolgate-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`)));
  try {
    const result = await client.callTool({ name: 'test_flaky', arguments: { word: 'x' } });
    const mcp = (result.structuredContent as unknown as PaymentRequired).accepts;
    assert.deepEqual(mcp.map((a) => a.scheme), ['exact', 'batch-settlement']);
    assert.deepEqual(mcp, http);
  } finally {
    await client.close();
  }
});

test('TOOLGATE_SCHEMES=exact: only exact is offered', async () => {
  const exactOnly = await startTestGateway({ devChain: chain, catalog: [flaky.tool], env: { TOOLGATE_SCHEMES: 'exact' } });
  try {
    assert.equal(exactOnly.gateway.channels, undefined);
    const accepts = readPaymentRequired(await fetch(`${exactOnly.baseUrl}/test/flaky?word=x`)).accepts;
    assert.deepEqual(accepts.map((a) => a.scheme), ['exact']);
  } finally {
    await exactOnly.close();
  }
});

test('TOOLGATE_CHANNEL_VOUCHER_CHECK=sdk: vouchers take the SDK\'s verify and settle, charged as by our check; a high-s voucher is still refused', async () => {
  const sdkChecked = await startTestGateway({ devChain: chain, catalog: [flaky.tool], env: { TOOLGATE_CHANNEL_VOUCHER_CHECK: 'sdk' } });
  try {
    const payer = await fundedPayer(chain, '1');
    const { pay, sent } = channelPayer(chain, payer);
    for (let call = 1; call <= 3; call++) assert.equal((await pay(`${sdkChecked.baseUrl}/test/flaky?word=s${call}`)).status, 200, `call ${call}`);
    const { channelConfig, voucher } = channelPayload(sent[0]!.payload);
    assert.equal((await sdkChecked.gateway.channels!.storage.get(voucher.channelId))?.chargedCumulativeAmount, (PRICE * 3n).toString());
    const metrics = await (await fetch(`${sdkChecked.baseUrl}/metrics`)).text();
    assert.equal(sample(metrics, 'toolgate_channel_vouchers_total', { check: 'sdk' }), 2);
    assert.equal(sample(metrics, 'toolgate_channel_vouchers_total', { check: 'local' }), undefined);

    const { publicClient } = chainClients(chain);
    const signed = await signVoucher(toClientEvmSigner(payer, publicClient as never), voucher.channelId, (PRICE * 4n).toString(), chain.network);
    const accepted = readPaymentRequired(await fetch(`${sdkChecked.baseUrl}/test/flaky?word=x`)).accepts.find((a) => a.scheme === 'batch-settlement')!;
    const payload: PaymentPayload = { x402Version: 2, accepted, payload: { type: 'voucher', channelConfig, voucher: { ...signed, signature: malleateSignature(signed.signature) } } };
    const runs = flaky.runs.count;
    const response = await fetch(`${sdkChecked.baseUrl}/test/flaky?word=x`, { headers: { 'payment-signature': encodePaymentSignatureHeader(payload) } });
    assert.equal(response.status, 402);
    assert.match(readPaymentRequired(response).error ?? '', /^invalid_batch_settlement_evm_voucher_signature: .*high s/);
    assert.equal(flaky.runs.count, runs);

    // Why it is refused: the contract will not claim it. The channel's latest voucher (call 3), its
    // s mirrored in the record as the SDK's check alone would have let it in: the claim fails.
    const { storage, collector } = sdkChecked.gateway.channels!;
    await storage.updateChannel(voucher.channelId, (current) => ({ ...current!, signature: malleateSignature(current!.signature as Hex) }));
    const report = await collector.collect();
    assert.equal(report.claimed, 0n);
    // 0xd78bce0c is OpenZeppelin's ECDSAInvalidSignatureS(bytes32): the contract refuses the high s.
    assert.ok(report.failures.length > 0 && report.failures.every((f) => f.includes('0xd78bce0c')), JSON.stringify(report.failures));
  } finally {
    await sdkChecked.close();
  }
});

/** The official facilitator over HTTP on loopback, with the schemes given, sending with a key of its own. */
async function remoteFacilitator(schemes: readonly ('exact' | 'batch-settlement')[]): Promise<{ url: string; close(): Promise<void> }> {
  const account = privateKeyToAccount(generatePrivateKey());
  await fundDevAccounts(chain.rpcUrl, [account.address]);
  const signer = localFacilitatorSigner(chain, account);
  const facilitator = new x402Facilitator();
  if (schemes.includes('exact')) facilitator.register(chain.network as Network, new ExactEvmScheme(signer));
  if (schemes.includes('batch-settlement')) facilitator.register(chain.network as Network, new FacilitatorScheme(signer));
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const answer = async (): Promise<unknown> => {
        if (req.url === '/supported') return facilitator.getSupported();
        const { paymentPayload, paymentRequirements } = JSON.parse(body) as { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements };
        return req.url === '/verify' ? facilitator.verify(paymentPayload, paymentRequirements) : facilitator.settle(paymentPayload, paymentRequirements);
      };
      answer().then(
        (result) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result)),
        (error: unknown) => res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: String(error) })),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test('a remote facilitator whose /supported lacks batch-settlement: channels are not offered', async () => {
  const remote = await remoteFacilitator(['exact']);
  const gateway = await startTestGateway({ devChain: chain, catalog: [flaky.tool], env: { TOOLGATE_FACILITATOR_URL: remote.url } });
  try {
    assert.equal(gateway.gateway.channels, undefined);
    const accepts = readPaymentRequired(await fetch(`${gateway.baseUrl}/test/flaky?word=x`)).accepts;
    assert.deepEqual(accepts.map((a) => a.scheme), ['exact']);
  } finally {
    await gateway.close();
    await remote.close();
  }
});

test('a remote facilitator that lists batch-settlement sends the deposit and the claims; the receiver authorizer stays with us', async () => {
  const remote = await remoteFacilitator(['exact', 'batch-settlement']);
  const gateway = await startTestGateway({ devChain: chain, catalog: [flaky.tool], env: { TOOLGATE_FACILITATOR_URL: remote.url } });
  try {
    const channels = gateway.gateway.channels;
    assert.ok(channels, 'offered');
    const { balanceOf } = chainClients(chain);
    const payer = await fundedPayer(chain, '1');
    const { pay } = channelPayer(chain, payer);
    const payToStart = await balanceOf(chain.payTo);
    for (const word of ['a', 'b', 'c']) assert.equal((await pay(`${gateway.baseUrl}/test/flaky?word=${word}`)).status, 200);
    const report = await channels.collector.collect();
    assert.deepEqual(report.failures, []);
    assert.equal(report.settled, PRICE * 3n);
    assert.equal(await balanceOf(chain.payTo), payToStart + PRICE * 3n);
  } finally {
    await gateway.close();
    await remote.close();
  }
});

/** The refund payload the SDK's client builds (a voucher for `amount`, `type: "refund"`), signed by `signer`, for `accepted`. */
async function refundPayload(accepted: PaymentRequirements, channelConfig: ReturnType<typeof channelPayload>['channelConfig'], channelId: Hex, amount: bigint, signer: PrivateKeyAccount): Promise<PaymentPayload> {
  const { publicClient } = chainClients(chain);
  const voucher = await signVoucher(toClientEvmSigner(signer, publicClient as never), channelId, amount.toString(), chain.network);
  return { x402Version: 2, accepted, payload: { type: 'refund', channelConfig, voucher } };
}

const flakyOffer = async (base = t.baseUrl): Promise<PaymentRequirements> =>
  readPaymentRequired(await fetch(`${base}/test/flaky?word=x`)).accepts.find((a) => a.scheme === 'batch-settlement')!;

test('the official client: a deposit, 20 vouchers with a top-up between them, then its own cooperative refund: payTo gets exactly the 22 prices, the payer exactly the rest, by the Refunded event', { timeout: 120_000 }, async () => {
  // Deposits of 15 calls: the 16th call finds the channel spent and tops it up.
  const g = await startTestGateway({ devChain: chain, catalog: [flaky.tool], env: { TOOLGATE_CHANNEL_MIN_DEPOSIT_CALLS: '15' } });
  try {
    const channels = g.gateway.channels!;
    const { balanceOf, publicClient } = chainClients(chain);
    await t.gateway.channels!.collector.collect(); // what earlier tests left claimed, so that payTo measures this test only
    await channels.collector.collect();
    const payer = await fundedPayer(chain, '1');
    const { pay, scheme, sent } = channelPayer(chain, payer);
    const payerStart = await balanceOf(payer.address);
    const payToStart = await balanceOf(chain.payTo);

    for (let call = 1; call <= 22; call++) {
      const response = await pay(`${g.baseUrl}/test/flaky?word=w${call}`);
      assert.equal(response.status, 200, `call ${call}`);
      assert.equal(settlementOf(response).success, true);
    }
    assert.deepEqual(
      sent.map((s, i) => (channelPayload(s.payload).type === 'deposit' ? i + 1 : 0)).filter(Boolean),
      [1, 16],
      'the first deposit, and a top-up at the 16th call: 20 vouchers in all, no corrective round trip',
    );
    assert.equal(sent.length, 22);
    const channelId = channelPayload(sent[0]!.payload).voucher.channelId;
    const deposited = PRICE * 30n;
    const charged = PRICE * 22n;
    assert.equal(await balanceOf(payer.address), payerStart - deposited);

    const runs = flaky.runs.count;
    const refund = await scheme.refund(`${g.baseUrl}/test/flaky?word=refund`);
    assert.equal(refund.success, true);
    assert.equal(refund.amount, (deposited - charged).toString(), 'PAYMENT-RESPONSE: what came back');
    assert.equal(flaky.runs.count, runs, 'the tool did not run for the refund');
    const receipt = await publicClient.getTransactionReceipt({ hash: refund.transaction as Hex });
    assert.equal(receipt.status, 'success');
    assert.deepEqual(settlementEventArgs(receipt, 'Refunded').map((e) => [e.channelId, e.amount]), [[channelId, deposited - charged]]);
    assert.deepEqual(settlementEventArgs(receipt, 'Claimed').map((e) => e.claimAmount), [charged], 'the unclaimed vouchers were claimed in the same transaction');
    assert.equal(await balanceOf(payer.address), payerStart - charged, 'the payer got exactly the unspent part back');
    assert.equal(await channels.storage.get(channelId), undefined, 'the gateway forgot the refunded channel');

    const report = await channels.collector.collect();
    assert.deepEqual(report.failures, []);
    assert.equal(report.settled, charged, 'the next collection settles what the refund claimed');
    assert.equal(await balanceOf(chain.payTo), payToStart + charged, 'payTo got exactly the 22 prices');

    const metrics = await (await fetch(`${g.baseUrl}/metrics`)).text();
    assert.equal(sample(metrics, 'toolgate_channel_refunds_total', { trigger: 'payer', outcome: 'refunded' }), 1);
    assert.equal(sample(metrics, 'toolgate_channel_refunded_usdc_total', { trigger: 'payer' }), Number(deposited - charged) / 1e6);
    assert.equal(sample(metrics, 'toolgate_calls_total', { tool: 'test_flaky', outcome: 'refunded' }), 1);
    assert.ok((sample(metrics, 'toolgate_channel_refund_gas_total') ?? 0) > 50_000);
    // And in the ledger's cost of collecting, as the dashboard shows it: what went back and the refund's own gas.
    const dashboard = await (await fetch(`${g.baseUrl}/dashboard/api/overview`)).json() as DashboardOverview;
    assert.equal(dashboard.channels.collection.refunds.transactions, 1);
    assert.equal(dashboard.channels.collection.refunds.amount.atomic, (deposited - charged).toString());
    assert.equal(dashboard.channels.collection.refunds.gas, receipt.gasUsed.toString());

    // Asked again (a voucher for what was charged, the payer's own signature): nothing left, refused before any transaction.
    const settler = await publicClient.getTransactionCount({ address: channelSettler });
    const again = await refundPayload(await flakyOffer(g.baseUrl), channelPayload(sent[0]!.payload).channelConfig, channelId, charged, payer);
    const refused = await fetch(`${g.baseUrl}/test/flaky?word=x`, { headers: { 'payment-signature': encodePaymentSignatureHeader(again) } });
    assert.equal(refused.status, 402);
    assert.match(readPaymentRequired(refused).error ?? '', /^invalid_batch_settlement_evm_refund_no_balance: /);
    assert.equal(await publicClient.getTransactionCount({ address: channelSettler }), settler, 'no transaction');
  } finally {
    await g.close();
  }
});

test('refund requests for the wrong amount, signed by someone else, for an unknown channel, or while a call is in flight: refused, no transaction, nothing charged; then one through MCP is served', { timeout: 120_000 }, async () => {
  const channels = t.gateway.channels!;
  const { balanceOf, publicClient } = chainClients(chain);
  const payer = await fundedPayer(chain, '1');
  const { pay, sent } = channelPayer(chain, payer);
  assert.equal((await pay(`${t.baseUrl}/test/flaky?word=a`)).status, 200);
  assert.equal((await pay(`${t.baseUrl}/test/flaky?word=b`)).status, 200);
  const { channelConfig, voucher } = channelPayload(sent[0]!.payload);
  const channelId = voucher.channelId;
  const charged = PRICE * 2n;
  const accepted = await flakyOffer();
  const payerBalance = await balanceOf(payer.address);
  const settler = await publicClient.getTransactionCount({ address: channelSettler });
  const runs = flaky.runs.count;
  const send = async (payload: PaymentPayload) => {
    const response = await fetch(`${t.baseUrl}/test/flaky?word=x`, { headers: { 'payment-signature': encodePaymentSignatureHeader(payload) } });
    return { status: response.status, required: readPaymentRequired(response), settlement: response.headers.get('payment-response') };
  };

  const wrongAmount = await send(await refundPayload(accepted, channelConfig, channelId, charged - PRICE, payer));
  assert.equal(wrongAmount.status, 402);
  assert.equal(wrongAmount.required.error, 'invalid_batch_settlement_evm_cumulative_amount_mismatch');
  const state = wrongAmount.required.accepts.find((a) => a.scheme === 'batch-settlement')?.extra.channelState as { chargedCumulativeAmount?: string } | undefined;
  assert.equal(state?.chargedCumulativeAmount, charged.toString(), 'the corrective 402 says what to sign');

  const forged = await send(await refundPayload(accepted, channelConfig, channelId, charged, privateKeyToAccount(generatePrivateKey())));
  assert.equal(forged.status, 402);
  assert.match(forged.required.error ?? '', /^invalid_batch_settlement_evm_voucher_signature: /);

  // A channel of this payer with another salt: never deposited into.
  const { computeChannelId } = await import('@x402/evm/batch-settlement/client');
  const unknownConfig = { ...channelConfig, salt: `0x${'0'.repeat(63)}7` as Hex };
  const unknownId = computeChannelId(unknownConfig, chain.network) as Hex;
  const unknown = await send(await refundPayload(accepted, unknownConfig, unknownId, 0n, payer));
  assert.equal(unknown.status, 402);
  assert.match(unknown.required.error ?? '', /^invalid_batch_settlement_evm_channel_not_found: /);

  // A call holds the channel: the refund is the scheme's busy answer.
  let release!: () => void;
  hold = new Promise<void>((resolve) => (release = resolve));
  const held = pay(`${t.baseUrl}/test/side-effect`, { method: 'POST' });
  await until(async () => holding, 'the held call');
  const busy = await send(await refundPayload(accepted, channelConfig, channelId, charged, payer));
  release();
  hold = undefined;
  assert.equal((await held).status, 200);
  assert.equal(busy.status, 402);
  assert.match(busy.required.error ?? '', /^invalid_batch_settlement_evm_channel_busy: /);
  const chargedNow = charged + PRICE;

  for (const refusal of [wrongAmount, forged, unknown, busy]) assert.equal(refusal.settlement, null, 'no settlement');
  assert.equal(await publicClient.getTransactionCount({ address: channelSettler }), settler, 'no transaction was sent');
  assert.equal(await balanceOf(payer.address), payerBalance, 'nothing moved');
  assert.equal((await channels.storage.get(channelId))?.chargedCumulativeAmount, chargedNow.toString(), 'nothing charged by the refusals (the held call was)');
  assert.equal(await channels.storage.get(unknownId), undefined, 'no record for the unknown channel');
  assert.equal(flaky.runs.count, runs, 'the tool never ran');

  // The same request, right, through MCP: answered with the settlement in _meta, the tool not run.
  const mcp = new Client({ name: 'toolgate-test', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`)));
  try {
    const answer = await mcp.callTool({ name: 'test_flaky', arguments: { word: 'x' }, _meta: { 'x402/payment': await refundPayload(accepted, channelConfig, channelId, chargedNow, payer) } });
    assert.equal(answer.isError, undefined, JSON.stringify(answer));
    const settlement = answer._meta?.['x402/payment-response'] as { success: boolean; transaction: Hex; amount: string };
    assert.equal(settlement.success, true);
    const refunded = DEPOSIT - chargedNow;
    assert.equal(settlement.amount, refunded.toString());
    assert.deepEqual(
      { ...(answer.structuredContent as Record<string, unknown>), message: undefined },
      { refunded: '0.097', refundedAtomic: refunded.toString(), channelId, transaction: settlement.transaction, message: undefined },
    );
    const receipt = await publicClient.getTransactionReceipt({ hash: settlement.transaction });
    assert.equal(settlementEventArgs(receipt, 'Refunded')[0]?.amount, refunded);
    assert.equal(await balanceOf(payer.address), payerBalance + refunded);
    assert.equal(flaky.runs.count, runs);
  } finally {
    await mcp.close();
  }
});

test('TOOLGATE_CHANNEL_IDLE_REFUND_S: a channel idle past it is refunded by the gateway on its own; one in use is not, until it too is idle', { timeout: 120_000 }, async () => {
  const g = await startTestGateway({ devChain: chain, catalog: [flaky.tool], env: { TOOLGATE_CHANNEL_IDLE_REFUND_S: '2' } });
  try {
    const channels = g.gateway.channels!;
    assert.ok(channels.idleRefunds, 'started');
    const { balanceOf, publicClient } = chainClients(chain);
    const idle = await fundedPayer(chain, '1');
    const busy = await fundedPayer(chain, '1');
    const idlePayer = channelPayer(chain, idle);
    const busyPayer = channelPayer(chain, busy);
    const idleStart = await balanceOf(idle.address);
    const busyStart = await balanceOf(busy.address);
    const fromBlock = await publicClient.getBlockNumber();
    for (const word of ['a', 'b']) {
      assert.equal((await idlePayer.pay(`${g.baseUrl}/test/flaky?word=${word}`)).status, 200);
      assert.equal((await busyPayer.pay(`${g.baseUrl}/test/flaky?word=${word}`)).status, 200);
    }
    const idleId = channelPayload(idlePayer.sent[0]!.payload).voucher.channelId;
    const busyId = channelPayload(busyPayer.sent[0]!.payload).voucher.channelId;
    let busyCalls = 2;
    const refundedChannels = async () => {
      const logs = await publicClient.getLogs({ address: BATCH_SETTLEMENT_ADDRESSES.settlement, fromBlock, toBlock: 'latest' });
      return parseEventLogs({ abi: batchSettlementAbi, logs, eventName: 'Refunded' }).map((log) => (log as unknown as { args: { channelId: Hex; amount: bigint } }).args);
    };

    // The busy payer calls every 300 ms while the idle one waits.
    const started = Date.now();
    await until(async () => {
      assert.equal((await busyPayer.pay(`${g.baseUrl}/test/flaky?word=c`)).status, 200);
      busyCalls += 1;
      await new Promise((resolve) => setTimeout(resolve, 300));
      return (await refundedChannels()).some((r) => r.channelId === idleId);
    }, 'the idle channel refunded', 20_000);
    assert.ok(Date.now() - started >= 1_500, 'not before it was idle');
    for (let i = 0; i < 5; i++) {
      assert.equal((await busyPayer.pay(`${g.baseUrl}/test/flaky?word=d`)).status, 200);
      busyCalls += 1;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    const refunds = await refundedChannels();
    assert.deepEqual(refunds.map((r) => [r.channelId, r.amount]), [[idleId, DEPOSIT - PRICE * 2n]], 'the idle channel only');
    assert.equal(await balanceOf(idle.address), idleStart - PRICE * 2n, 'the idle payer got the unspent part back');
    await until(async () => (await channels.storage.get(idleId)) === undefined, 'the refunded channel\'s record dropped (after its receipt)');
    assert.equal((await channels.storage.get(busyId))?.chargedCumulativeAmount, (PRICE * BigInt(busyCalls)).toString(), 'the busy channel is untouched');
    assert.equal(await balanceOf(busy.address), busyStart - DEPOSIT);

    // Left alone, the busy channel is idle too after 2 s, and refunded.
    await until(async () => (await refundedChannels()).some((r) => r.channelId === busyId), 'the second channel refunded once idle', 20_000);
    assert.equal(await balanceOf(busy.address), busyStart - PRICE * BigInt(busyCalls));
    // The event is on chain once the refund is mined; the gateway counts it once it has read the receipt.
    const metrics = await until(async () => {
      const text = await (await fetch(`${g.baseUrl}/metrics`)).text();
      return sample(text, 'toolgate_channel_refunds_total', { trigger: 'idle', outcome: 'refunded' }) === 2 && text;
    }, 'both idle refunds counted on /metrics');
    assert.equal(sample(metrics, 'toolgate_channel_refunds_total', { trigger: 'idle', outcome: 'failed' }), undefined);

    // The refunded payer comes back with the official client, whose state still holds the old deposit:
    // its voucher is over what the channel now holds, and the 402 tells it to resync (from the chain:
    // the gateway forgot the channel), after which it deposits again and is served.
    const back = await idlePayer.pay(`${g.baseUrl}/test/flaky?word=back`);
    assert.equal(back.status, 200, await back.clone().text());
    assert.deepEqual(idlePayer.sent.slice(-2).map((s) => channelPayload(s.payload).type), ['voucher', 'deposit'], 'one refused voucher, then a new deposit');
    assert.equal(await balanceOf(idle.address), idleStart - PRICE * 2n - DEPOSIT, 'the refund kept, a new deposit held; the third call is paid from it');
    assert.equal(channelPayload(idlePayer.sent.at(-1)!.payload).voucher.maxClaimableAmount, (PRICE * 3n).toString(), 'the cumulative amount goes on from what was claimed');
  } finally {
    await g.close();
  }
});
