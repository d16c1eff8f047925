// The official x402 client (@x402/fetch + @x402/evm), as agents use it, pays toolgate on anvil:
// over HTTP, and over MCP (official MCP client, both protocol eras) with its signed payload in _meta.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { decodePaymentResponseHeader } from '@x402/core/http';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { payForToolOverMcp } from '../../examples/pay-over-mcp.ts';
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

for (const era of ['modern', 'legacy'] as const) {
  test(`over MCP (${era === 'modern' ? '2026-07-28' : '2025-11-25'}): the official x402 client signs the payment-required result and the paid call settles`, async () => {
    const privateKey = await fundedPayerKey(t.devChain, '5');
    const payer = privateKeyToAccount(privateKey);
    const { balanceOf, publicClient } = chainClients(t.devChain);
    const devChain = { network: t.devChain.network, usdc: t.devChain.usdc, payer: { address: payer.address, privateKey } };
    const before = await balanceOf(payer.address);
    const runs = echo.runs.count;

    const { result, settlement, protocolVersion } = await payForToolOverMcp(`${t.baseUrl}/mcp`, devChain, 'test_echo', { word: 'mcp' }, era);
    assert.equal(protocolVersion, era === 'modern' ? '2026-07-28' : '2025-11-25');
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.deepEqual(result.structuredContent, { echo: 'mcp' });
    assert.equal(echo.runs.count, runs + 1);
    assert.equal(settlement?.success, true);
    assert.equal(settlement.payer, payer.address);
    assert.equal((await publicClient.getTransactionReceipt({ hash: settlement.transaction as Hex })).status, 'success');
    assert.equal(before - (await balanceOf(payer.address)), 3000n);
  });
}
