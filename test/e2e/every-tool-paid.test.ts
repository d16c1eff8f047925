// Every tool that has a handler can be paid for and used with its documented example, over HTTP
// (each endpoint) and over MCP: the promise of "a client configured with just the URL".
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PaymentRequired, SettleResponse } from '@x402/core/types';
import { catalog } from '../../src/catalog/index.ts';
import type { Tool } from '../../src/catalog/tool.ts';
import { exampleRequest } from '../../src/faces/http/http-example.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { fundedPayer, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from '../support/payments.ts';
import type { CryptoWorld } from '../support/crypto-world.ts';
import { startCryptoWorld } from '../support/crypto-world.ts';
import type { WebFixtures } from '../support/web-fixtures.ts';
import { startWebFixtures } from '../support/web-fixtures.ts';

// The providers are the loopback fixture server and anvil standing in for Base; nothing leaves the machine.
let t: TestGateway;
let web: WebFixtures;
let crypto: CryptoWorld;
before(async () => {
  [web, crypto] = await Promise.all([startWebFixtures(), startCryptoWorld({ sepolia: true })]);
  t = await startTestGateway({ env: { ...web.env, ...crypto.env } });
});
after(async () => {
  await t?.close();
  await web?.close();
  await crypto?.close();
});

/** The example, with a URL the tool would fetch pointed at a fixture page instead of the internet. */
function inputOf(tool: Tool): Readonly<Record<string, unknown>> {
  return tool.precheck && typeof tool.example.url === 'string' ? { ...tool.example, url: web.page('article.html') } : tool.example;
}

const builtRoutes = catalog.flatMap((tool) => tool.http.filter((route) => route.handler ?? tool.handler).map((route) => ({ tool, route })));
const builtTools = catalog.filter((tool) => tool.handler);

test('at least the foundation\'s tools are built', () => {
  for (const path of ['/api/tools/uuid', '/api/tools/hash', '/api/tools/qr', '/api/crypto/unit-convert', '/api/crypto/verify-signature']) {
    assert.ok(builtRoutes.some((r) => r.route.path === path), path);
  }
});

for (const { tool, route } of builtRoutes) {
  test(`HTTP ${route.method} ${route.path}: the example is paid and answered`, async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const request = exampleRequest(tool, route, route.input ? undefined : inputOf(tool));
    const send = (headers: Record<string, string>) =>
      fetch(`${t.baseUrl}${request.pathWithQuery}`, {
        method: request.method,
        headers: { ...headers, ...(request.body ? { 'content-type': 'application/json' } : {}) },
        ...(request.body ? { body: JSON.stringify(request.body) } : {}),
      });
    const unpaid = await send({});
    assert.equal(unpaid.status, 402, await unpaid.clone().text());
    const requirements = readPaymentRequired(unpaid).accepts[0]!;
    const paid = await send({ 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, requirements)) });
    assert.equal(paid.status, 200, await paid.clone().text());
    assert.equal(readPaymentResponse(paid)?.success, true);
    assert.equal(typeof (await paid.json()), 'object');
  });
}

test('MCP: every built tool\'s example is paid and answered', async () => {
  const client = new Client({ name: 'every-tool', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`)));
  try {
    for (const tool of builtTools) {
      const payer = await fundedPayer(t.devChain, '1');
      const unpaid = (await client.callTool({ name: tool.name, arguments: { ...inputOf(tool) } })) as CallToolResult;
      assert.equal(unpaid.isError, true, tool.name);
      const required = unpaid.structuredContent as unknown as PaymentRequired;
      const paid = (await client.callTool({
        name: tool.name, arguments: { ...inputOf(tool) }, _meta: { 'x402/payment': await signPayment(payer, required.accepts[0]!) },
      })) as CallToolResult;
      assert.notEqual(paid.isError, true, `${tool.name}: ${JSON.stringify(paid).slice(0, 500)}`);
      assert.equal((paid._meta?.['x402/payment-response'] as SettleResponse | undefined)?.success, true, tool.name);
    }
  } finally {
    await client.close();
  }
});
