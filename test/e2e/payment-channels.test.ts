// Payment channels (x402 batch-settlement) through the gateway, end to end on anvil with Circle's
// USDC and the real channel contracts: the OFFICIAL @x402/fetch client with only the official
// batch-settlement client scheme registered (so it takes the channel offer) pays a paid GET tool,
// the gateway's collector claims and settles, the SDK's channel manager refunds the rest.
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
import type { Hex, PrivateKeyAccount } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Tool } from '../../src/catalog/tool.ts';
import { defineTool } from '../../src/catalog/tool.ts';
import { devPrivateKey } from '../../src/chain/dev-accounts.ts';
import { fundDevAccounts, startDevChain } from '../../src/chain/devchain.ts';
import type { DevChain } from '../../src/chain/devchain.ts';
import { ToolError } from '../../src/errors/tool-error.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { channelPayer, channelPayload, settlementEvents, settlementOf } from '../support/channel-payer.ts';
import { sample } from '../support/prometheus-text.ts';
import { localFacilitatorSigner } from '../support/official-facilitator.ts';
import { chainClients, fundedPayer, readPaymentRequired } from '../support/payments.ts';

const PRICE = 1_000n; // 0.001 USDC
const DEPOSIT = PRICE * 100n; // TOOLGATE_CHANNEL_MIN_DEPOSIT_CALLS' default

/** A paid GET tool that fails when asked to, and counts its runs. */
function flakyTool() {
  const runs = { count: 0 };
  const tool = defineTool({
    name: 'test_flaky',
    title: 'Flaky',
    description: 'Echoes a word; fails on "fail".',
    price: '0.001',
    http: [{ method: 'GET', path: '/test/flaky' }],
    input: z.object({ word: z.string().min(1).max(50) }),
    example: { word: 'hello' },
    annotations: { readOnlyHint: true, openWorldHint: false },
    async handler(input) {
      runs.count += 1;
      if (input.word === 'fail') throw new ToolError(502, 'upstream_failed', 'failed on purpose');
      return { echo: input.word };
    },
  });
  return { tool: tool as Tool, runs };
}

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
const flaky = flakyTool();

before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
  t = await startTestGateway({ devChain: chain, catalog: [flaky.tool, dearTool] });
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
  const [deposited] = settlementEvents(depositReceipt, 'Deposited');
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
  assert.equal(settlementEvents(refundReceipt, 'Refunded')[0]?.amount, DEPOSIT - PRICE * 21n);
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

test('a voucher signed by someone else, one over the deposit, and a replayed one: 402 with the scheme\'s reason, the tool not run', async () => {
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
  async function sendVoucher(path: string, accepted: PaymentRequirements, signer: PrivateKeyAccount, amount: bigint): Promise<{ status: number; required: PaymentRequired }> {
    const signed = await signVoucher(toClientEvmSigner(signer, publicClient as never), voucher.channelId, amount.toString(), chain.network);
    const payload: PaymentPayload = { x402Version: 2, accepted, payload: { type: 'voucher', channelConfig, voucher: signed } };
    const response = await fetch(`${t.baseUrl}${path}`, { headers: { 'payment-signature': encodePaymentSignatureHeader(payload) } });
    return { status: response.status, required: readPaymentRequired(response) };
  }

  const runs = flaky.runs.count;
  const cheap = await offer('/test/flaky?word=x');
  const forged = await sendVoucher('/test/flaky?word=x', cheap, privateKeyToAccount(generatePrivateKey()), charged + PRICE);
  assert.equal(forged.status, 402);
  assert.match(forged.required.error ?? '', /^invalid_batch_settlement_evm_voucher_signature: /);

  const dearRunsBefore = dearRuns.count;
  const over = await sendVoucher('/test/dear', await offer('/test/dear'), payer, charged + 1_000_000n);
  assert.equal(over.status, 402);
  assert.match(over.required.error ?? '', /^invalid_batch_settlement_evm_cumulative_exceeds_balance: /);
  assert.equal(dearRuns.count, dearRunsBefore);

  const replay = await fetch(`${t.baseUrl}/test/flaky?word=x`, { headers: { 'payment-signature': secondSent!.header } });
  assert.equal(replay.status, 402);
  const replayRequired = readPaymentRequired(replay);
  assert.match(replayRequired.error ?? '', /^invalid_batch_settlement_evm_cumulative_amount_mismatch: /);
  // The corrective 402: the SDK's channel state, added to our offer, tells the client where it stands.
  const state = replayRequired.accepts.find((a) => a.scheme === 'batch-settlement')?.extra.channelState as { chargedCumulativeAmount?: string } | undefined;
  assert.equal(state?.chargedCumulativeAmount, charged.toString());
  assert.equal(flaky.runs.count, runs, 'the tool never ran');

  // The channel is not left busy by any of them: the payer's next call goes through.
  assert.equal((await pay(`${t.baseUrl}/test/flaky?word=c`)).status, 200);
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
