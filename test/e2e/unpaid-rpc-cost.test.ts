// Issue 21, finding 5: what free requests can make the gateway ask of the node. The attack: many
// payments that cannot pay (contract-length signatures from addresses without code, valid
// signatures from empty addresses), counted at a JSON-RPC proxy in front of the chain.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PaymentRequirements } from '@x402/core/types';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { DevChain } from '../../src/chain/devchain.ts';
import { startDevChain } from '../../src/chain/devchain.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { fundedPayer, paymentHeader, readPaymentRequired, signPayment } from '../support/payments.ts';
import type { RpcCounter } from '../support/rpc-counter.ts';
import { startRpcCounter } from '../support/rpc-counter.ts';
import { countingEchoTool } from '../support/test-tools.ts';

let chain: DevChain;
let rpc: RpcCounter;
let t: TestGateway;
let requirements: PaymentRequirements;
const echo = countingEchoTool();

before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
  rpc = await startRpcCounter(chain.rpcUrl);
  t = await startTestGateway({ devChain: { ...chain, rpcUrl: rpc.url }, catalog: [echo.tool] });
  requirements = readPaymentRequired(await fetch(`${t.baseUrl}/test/echo?word=rpc`)).accepts[0]!;
});
after(async () => {
  await t?.close();
  await rpc?.close();
  await chain?.stop();
});

const send = (header: string) => fetch(`${t.baseUrl}/test/echo?word=rpc`, { headers: { 'PAYMENT-SIGNATURE': header } });

/** Waits until the gateway's own background reads (block polling) are out of the count's way. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

describe('paying clients', () => {
  // Runs first: the tests below spend this client address's budget on purpose.
  test('60 fresh funded payers from one address paying at once are all served: reads that found funds are not charged', async () => {
    const payers = await Promise.all(Array.from({ length: 60 }, () => fundedPayer(chain, '1')));
    const payloads = await Promise.all(payers.map((payer) => signPayment(payer, requirements)));
    // A node 200 ms away: every first balance read is in flight together, as under real load.
    rpc.delayMs = 200;
    let answers: Response[];
    try {
      answers = await Promise.all(payloads.map((payload) => send(paymentHeader(payload))));
    } finally {
      rpc.delayMs = 0;
    }
    const refusals = answers.filter((a) => a.status !== 200).map((a) => readPaymentRequired(a).error);
    assert.deepEqual(refusals, []);
  });
});

describe('requests that cannot pay', () => {
  test('100 contract-length signatures from 100 addresses without code cost at most a client\'s burst of chain reads', async () => {
    await settle();
    rpc.reset();
    const runsBefore = echo.runs.count;
    const answers = [];
    for (let i = 0; i < 100; i++) {
      const payer = privateKeyToAccount(generatePrivateKey());
      const payload = await signPayment(payer, requirements);
      const signed = payload.payload as { signature: string };
      answers.push((await send(paymentHeader({ ...payload, payload: { ...payload.payload, signature: `${signed.signature}00` } }))).status);
    }
    assert.ok(answers.every((s) => s === 402));
    const calls = rpc.total();
    assert.ok(calls <= 25, `${calls} chain calls: ${JSON.stringify([...rpc.counts])}`);
    assert.equal(echo.runs.count, runsBefore);
  });

  test('one empty address sending valid signatures again and again costs about one read a second', async () => {
    const payer = privateKeyToAccount(generatePrivateKey());
    await settle();
    rpc.reset();
    for (let i = 0; i < 50; i++) assert.equal((await send(paymentHeader(await signPayment(payer, requirements)))).status, 402);
    const reads = rpc.counts.get('eth_call') ?? 0;
    assert.ok(reads <= 3, `${reads} eth_calls for 50 requests from one empty address`);
  });

  test('a client past its budget is told to slow down, with nothing read for it', async () => {
    await settle();
    rpc.reset();
    const statuses: string[] = [];
    for (let i = 0; i < 40; i++) {
      const payer = privateKeyToAccount(generatePrivateKey());
      const answer = await send(paymentHeader(await signPayment(payer, requirements)));
      statuses.push((readPaymentRequired(answer).error ?? '').split(':')[0]!);
    }
    assert.ok(statuses.includes('verification_busy'), statuses.join(','));
    assert.ok((rpc.counts.get('eth_call') ?? 0) < 40);
  });
});
