// Issue 21, finding 2: unpaid calls must not grow the ledger freely. The attack: pay a tool that
// then fails (nothing is charged) with a payment padded by unknown keys, over MCP and HTTP, and
// watch the ledger. Real anvil, Circle's real USDC, the real ledger (PGlite).
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PaymentPayload, PaymentRequired } from '@x402/core/types';
import type { Hex } from 'viem';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { fundedPayer, paymentHeader, readPaymentRequired, signPayment } from '../support/payments.ts';
import { failingTool } from '../support/test-tools.ts';

let t: TestGateway;
let mcp: Client;

before(async () => {
  t = await startTestGateway({ catalog: [failingTool('0.001')] });
  mcp = new Client({ name: 'ledger-growth', version: '1.0.0' });
  await mcp.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`)));
});
after(async () => {
  await mcp?.close();
  await t?.close();
});

const authorizationOf = (payload: PaymentPayload) => (payload.payload as { authorization: { from: Hex; nonce: Hex } }).authorization;

/** The payment with `bytes` of padding in unknown keys, at the top and inside the payload. */
function padded(payload: PaymentPayload, bytes: number): PaymentPayload {
  const half = 'x'.repeat(Math.floor(bytes / 2));
  return { ...payload, padding: half, payload: { ...payload.payload, padding: half } } as PaymentPayload;
}

async function mcpRequirements() {
  const first = (await mcp.callTool({ name: 'test_failing', arguments: {} })) as CallToolResult;
  return (first.structuredContent as unknown as PaymentRequired).accepts[0]!;
}

describe('a payment padded with unknown keys', () => {
  test('over MCP, 900 kB of padding is refused before any work: no tool run, no ledger row', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const payment = padded(await signPayment(payer, await mcpRequirements()), 900_000);
    const result = (await mcp.callTool({ name: 'test_failing', arguments: {}, _meta: { 'x402/payment': payment } })) as CallToolResult;
    assert.equal(result.isError, true);
    assert.match((result.structuredContent as unknown as PaymentRequired).error ?? '', /larger than 16384 bytes/);
    const { from, nonce } = authorizationOf(payment);
    assert.equal(await t.gateway.ledger.find(from, nonce), undefined);
  });

  test('over HTTP, a padded header is refused before the gateway reads it (Node\'s 16 KiB header limit: 431)', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const requirements = readPaymentRequired(await fetch(`${t.baseUrl}/test/failing`)).accepts[0]!;
    const payment = padded(await signPayment(payer, requirements), 12_000);
    const response = await fetch(`${t.baseUrl}/test/failing`, { headers: { 'PAYMENT-SIGNATURE': paymentHeader(payment) } });
    assert.equal(response.status, 431);
    const { from, nonce } = authorizationOf(payment);
    assert.equal(await t.gateway.ledger.find(from, nonce), undefined);
  });

  for (const face of ['mcp', 'http'] as const) {
    test(`over ${face}, under the limit, a failed tool leaves a row with the parsed authorization only`, async () => {
      const payer = await fundedPayer(t.devChain, '1');
      const requirements = face === 'mcp' ? await mcpRequirements() : readPaymentRequired(await fetch(`${t.baseUrl}/test/failing`)).accepts[0]!;
      const payment = padded(await signPayment(payer, requirements), 8_000);
      if (face === 'mcp') {
        const result = (await mcp.callTool({ name: 'test_failing', arguments: {}, _meta: { 'x402/payment': payment } })) as CallToolResult;
        assert.equal(result.isError, true);
      } else {
        const response = await fetch(`${t.baseUrl}/test/failing`, { headers: { 'PAYMENT-SIGNATURE': paymentHeader(payment) } });
        assert.equal(response.status, 500);
      }
      const { from, nonce } = authorizationOf(payment);
      const row = await t.gateway.ledger.find(from, nonce);
      assert.equal(row?.state, 'released');
      const stored = JSON.parse(row?.signedAuthorization ?? '{}') as Record<string, unknown>;
      assert.deepEqual(Object.keys(stored), ['signature', 'authorization']);
      assert.doesNotMatch(row?.signedAuthorization ?? '', /xxxx/);
      assert.ok((row?.signedAuthorization?.length ?? 0) < 500, `${row?.signedAuthorization?.length} characters kept`);
    });
  }
});
