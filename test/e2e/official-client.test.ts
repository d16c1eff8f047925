// The official x402 client (@x402/fetch + @x402/evm), as agents use it, pays toolgate on anvil.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodePaymentResponseHeader } from '@x402/core/http';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { payingFetch } from '../../examples/pay-with-official-client.ts';
import { catalog } from '../../src/catalog/index.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { chainClients, fundedPayerKey } from '../support/payments.ts';
import { countingEchoTool } from '../support/test-tools.ts';

let t: TestGateway;
const echo = countingEchoTool('0.003');
before(async () => {
  t = await startTestGateway({ catalog: [...catalog, echo.tool] });
});
after(() => t?.close());

test('the official client pays: 200, PAYMENT-RESPONSE mined, balances move by exactly the price', async () => {
  const privateKey = await fundedPayerKey(t.devChain, '5');
  const payer = privateKeyToAccount(privateKey);
  const { balanceOf, publicClient } = chainClients(t.devChain);
  const devChain = { network: t.devChain.network, usdc: t.devChain.usdc, payer: { address: payer.address, privateKey } };
  const before = [await balanceOf(payer.address), await balanceOf(t.devChain.payTo)] as const;

  const response = await payingFetch(devChain)(`${t.baseUrl}/test/echo?word=official`);
  assert.equal(response.status, 200);
  assert.deepEqual(await response.json(), { echo: 'official' });
  const header = response.headers.get('payment-response');
  assert.ok(header);
  const settlement = decodePaymentResponseHeader(header);
  assert.equal(settlement.success, true);
  assert.equal(settlement.payer, payer.address);
  const receipt = await publicClient.getTransactionReceipt({ hash: settlement.transaction as Hex });
  assert.equal(receipt.status, 'success');
  assert.equal(before[0] - (await balanceOf(payer.address)), 3000n);
  assert.equal((await balanceOf(t.devChain.payTo)) - before[1], 3000n);
});
