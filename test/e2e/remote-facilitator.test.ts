// toolgate with a remote facilitator: the official @x402 facilitator over HTTP verifies and
// settles; toolgate's gate still validates first, locks the authorization and withholds on failure.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Hex } from 'viem';
import { startDevChain } from '../../src/chain/devchain.ts';
import type { DevChain } from '../../src/chain/devchain.ts';
import { catalog } from '../../src/catalog/index.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { chainClients, fundedPayer, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from '../support/payments.ts';
import type { ReferenceFacilitator } from '../support/reference-facilitator.ts';
import { startReferenceFacilitator } from '../support/reference-facilitator.ts';
import { countingEchoTool } from '../support/test-tools.ts';

let chain: DevChain;
let facilitator: ReferenceFacilitator;
let t: TestGateway;
const echo = countingEchoTool('0.002');

before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
  facilitator = await startReferenceFacilitator(chain);
  t = await startTestGateway({ devChain: chain, catalog: [...catalog, echo.tool], env: { TOOLGATE_FACILITATOR_URL: facilitator.url } });
});
after(async () => {
  await t?.close();
  await facilitator?.close();
  await chain?.stop();
});

test('a payment verified and settled by the official facilitator over HTTP', async () => {
  assert.equal(t.gateway.facilitator.kind, 'remote');
  const payer = await fundedPayer(chain);
  const { balanceOf, publicClient } = chainClients(chain);
  const unpaid = await fetch(`${t.baseUrl}/test/echo?word=remote`);
  const requirements = readPaymentRequired(unpaid).accepts[0]!;
  const before = await balanceOf(payer.address);
  const header = paymentHeader(await signPayment(payer, requirements));

  const paid = await fetch(`${t.baseUrl}/test/echo?word=remote`, { headers: { 'PAYMENT-SIGNATURE': header } });
  assert.equal(paid.status, 200);
  const settlement = readPaymentResponse(paid)!;
  assert.equal(settlement.success, true);
  assert.equal((await publicClient.getTransactionReceipt({ hash: settlement.transaction as Hex })).status, 'success');
  assert.equal(before - (await balanceOf(payer.address)), 2000n);
  assert.ok(facilitator.requests.includes('POST /verify'));
  assert.ok(facilitator.requests.includes('POST /settle'));

  const replay = await fetch(`${t.baseUrl}/test/echo?word=remote`, { headers: { 'PAYMENT-SIGNATURE': header } });
  assert.equal(replay.status, 402);
});

test('the remote facilitator\'s refusal reaches the caller as a 402 reason', async () => {
  const payer = await fundedPayer(chain);
  const requirements = readPaymentRequired(await fetch(`${t.baseUrl}/test/echo?word=x`)).accepts[0]!;
  const runs = echo.runs.count;
  const response = await fetch(`${t.baseUrl}/test/echo?word=x`, {
    headers: { 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, requirements, { value: 1999n })) },
  });
  assert.equal(response.status, 402);
  assert.match(readPaymentRequired(response).error ?? '', /invalid_exact_evm/);
  assert.equal(echo.runs.count, runs);
});
