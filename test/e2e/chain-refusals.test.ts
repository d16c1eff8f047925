// Issue 21, finding 3: an authorization the chain refuses never runs a tool again, and a payer the
// chain refused gets no more than one unpaid run per on-chain action of its own. The attack: sign
// an authorization, cancel it on chain (one transaction), then send it again and again. Real anvil,
// Circle's real USDC; balances read before and after.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { parseSignature } from 'viem';
import type { Hex, PrivateKeyAccount } from 'viem';
import { fiatTokenAbi } from '../../src/chain/fiat-token.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { chainClients, fundedPayer, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from '../support/payments.ts';
import { countingEchoTool, countingOutsideTool } from '../support/test-tools.ts';

let t: TestGateway;
let clients: ReturnType<typeof chainClients>;
const local = countingEchoTool();
const outside = countingOutsideTool();

before(async () => {
  t = await startTestGateway({ catalog: [local.tool, outside.tool] });
  clients = chainClients(t.devChain);
});
after(() => t?.close());

async function requirementsOf(path: string): Promise<PaymentRequirements> {
  return readPaymentRequired(await fetch(`${t.baseUrl}${path}`)).accepts[0]!;
}

const pay = (path: string, payload: PaymentPayload) => fetch(`${t.baseUrl}${path}`, { headers: { 'PAYMENT-SIGNATURE': paymentHeader(payload) } });

async function giveGas(payer: PrivateKeyAccount) {
  await clients.publicClient.request({ method: 'anvil_setBalance' as 'eth_chainId', params: [payer.address, '0xDE0B6B3A7640000'] as never });
}

/** The payer cancels its own authorization on chain (EIP-3009 cancelAuthorization): one transaction. */
async function cancelOnChain(payer: PrivateKeyAccount, payload: PaymentPayload) {
  const { nonce } = (payload.payload as { authorization: { nonce: Hex } }).authorization;
  const signature = await payer.signTypedData({
    domain: { name: String(payload.accepted.extra?.name), version: String(payload.accepted.extra?.version), chainId: t.devChain.chainId, verifyingContract: t.devChain.usdc },
    types: { CancelAuthorization: [{ name: 'authorizer', type: 'address' }, { name: 'nonce', type: 'bytes32' }] },
    primaryType: 'CancelAuthorization',
    message: { authorizer: payer.address, nonce },
  });
  const { r, s, v } = parseSignature(signature);
  await giveGas(payer);
  const hash = await clients.walletFor(payer).writeContract({
    address: t.devChain.usdc, abi: fiatTokenAbi(), functionName: 'cancelAuthorization', args: [payer.address, nonce, Number(v), r, s] as never,
  });
  await clients.publicClient.waitForTransactionReceipt({ hash });
}

describe('an authorization cancelled on chain', () => {
  test('sent five times runs a local tool once (the simulation refuses it, and a refused authorization is final)', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const path = '/test/echo?word=cancelled';
    const payload = await signPayment(payer, await requirementsOf(path));
    await cancelOnChain(payer, payload);
    const merchantBefore = await clients.balanceOf(t.devChain.payTo);
    const runsBefore = local.runs.count;
    const answers = [];
    for (let i = 0; i < 5; i++) answers.push(await pay(path, payload));
    assert.deepEqual(answers.map((a) => a.status), [402, 402, 402, 402, 402]);
    assert.equal(readPaymentResponse(answers[0]!)?.errorReason, 'invalid_exact_evm_nonce_already_used');
    for (const answer of answers) assert.doesNotMatch(await answer.text(), /"echo"/);
    assert.equal(local.runs.count - runsBefore, 1, 'the tool ran once, for the attempt that found out');
    assert.equal(await clients.balanceOf(t.devChain.payTo), merchantBefore);
  });

  test('never runs a tool that reaches the outside world: its nonce is read on chain before the tool runs', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const path = '/test/outside?word=cancelled';
    const payload = await signPayment(payer, await requirementsOf(path));
    await cancelOnChain(payer, payload);
    const runsBefore = outside.runs.count;
    for (let i = 0; i < 3; i++) {
      const answer = await pay(path, payload);
      assert.equal(answer.status, 402);
      assert.match(readPaymentRequired(answer).error ?? '', /nonce_already_used|already used/);
    }
    assert.equal(outside.runs.count - runsBefore, 0);
  });
});

describe('a payer the chain refused', () => {
  /** A funded payer put on probation: one of its authorizations cancelled on chain, then sent (one run). */
  async function payerOnProbation(path: string): Promise<PrivateKeyAccount> {
    const payer = await fundedPayer(t.devChain, '1');
    const cancelled = await signPayment(payer, await requirementsOf(path));
    await cancelOnChain(payer, cancelled);
    assert.equal((await pay(path, cancelled)).status, 402);
    return payer;
  }

  test('is on probation: with its USDC moved away, new authorizations sent together run no tool at all', async () => {
    const path = '/test/echo?word=probation';
    const payer = await payerOnProbation(path);
    // Then the payer moves its USDC away (one more on-chain action) and sends ten fresh
    // authorizations at once, which the cached balance view alone would have admitted.
    const hash = await clients.walletFor(payer).writeContract({
      address: t.devChain.usdc, abi: fiatTokenAbi(), functionName: 'transfer', args: [t.devChain.payer.address, 1_000_000n] as never,
    });
    await clients.publicClient.waitForTransactionReceipt({ hash });
    const runsBefore = local.runs.count;
    const requirements = await requirementsOf(path);
    const payloads = await Promise.all(Array.from({ length: 10 }, () => signPayment(payer, requirements)));
    const answers = await Promise.all(payloads.map((p) => pay(path, p)));
    assert.ok(answers.every((a) => a.status === 402), answers.map((a) => a.status).join(','));
    assert.equal(local.runs.count - runsBefore, 0, 'each was checked on chain (or refused while one was), none ran');
  });

  test('on probation still pays and gets its result once funded again', async () => {
    const path = '/test/echo?word=recovered';
    const payer = await payerOnProbation(path);
    const merchantBefore = await clients.balanceOf(t.devChain.payTo);
    const answer = await pay(path, await signPayment(payer, await requirementsOf(path)));
    assert.equal(answer.status, 200);
    assert.deepEqual(await answer.json(), { echo: 'recovered' });
    assert.equal((await clients.balanceOf(t.devChain.payTo)) - merchantBefore, 1000n);
  });
});
