// A settlement whose receipt does not come in time is recorded as pending, the result is withheld,
// the authorization cannot be used again meanwhile, and reconciliation settles it once it is mined.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { catalog } from '../../src/catalog/index.ts';
import { silentLogger } from '../../src/log.ts';
import { reconcilePayments } from '../../src/payments/reconciler.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { chainClients, fundedPayer, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from '../support/payments.ts';
import { withMiningPaused } from '../support/mining.ts';
import { countingEchoTool } from '../support/test-tools.ts';

let t: TestGateway;
const echo = countingEchoTool('0.001');
before(async () => {
  t = await startTestGateway({ catalog: [...catalog, echo.tool], env: { TOOLGATE_RECEIPT_TIMEOUT_MS: '400' } });
});
after(() => t?.close());

test('no receipt in time: 402 settlement_pending, replay refused, then reconciled as settled', async () => {
  const { publicClient, balanceOf } = chainClients(t.devChain);
  const rpc = (method: string, params: unknown[]) => publicClient.request({ method: method as 'eth_chainId', params: params as never });
  const payer = await fundedPayer(t.devChain);
  const requirements = readPaymentRequired(await fetch(`${t.baseUrl}/test/echo?word=slow`)).accepts[0]!;
  const header = paymentHeader(await signPayment(payer, requirements));
  const before = await balanceOf(payer.address);

  const response = await withMiningPaused(t.devChain, () => fetch(`${t.baseUrl}/test/echo?word=slow`, { headers: { 'PAYMENT-SIGNATURE': header } }));
  assert.equal(response.status, 402);
  const settlement = readPaymentResponse(response)!;
  assert.equal(settlement.success, false);
  assert.equal(settlement.errorReason, 'settlement_pending');
  assert.match(settlement.transaction, /^0x[0-9a-f]{64}$/);
  assert.doesNotMatch(await response.text(), /"echo"/);

  const replay = await fetch(`${t.baseUrl}/test/echo?word=slow`, { headers: { 'PAYMENT-SIGNATURE': header } });
  assert.equal(replay.status, 402);
  assert.match(readPaymentRequired(replay).error ?? '', /pending reconciliation/);

  await rpc('evm_mine', []);
  const summary = await reconcilePayments(t.gateway.ledger, t.gateway.chain, silentLogger, { instance: t.gateway.config.instance, atStart: true, graceMs: 0 });
  assert.equal(summary.settled, 1);
  const record = await t.gateway.ledger.find(payer.address, (JSON.parse(Buffer.from(header, 'base64').toString()) as { payload: { authorization: { nonce: string } } }).payload.authorization.nonce);
  assert.equal(record?.state, 'settled');
  assert.equal(record?.txHash, settlement.transaction);
  assert.equal(before - (await balanceOf(payer.address)), 1000n);
});
