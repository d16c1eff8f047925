// `toolgate mcp` as a desktop agent runs it: the MCP SDK's Client spawns the bridge over stdio, the
// bridge pays a gateway on anvil with Circle's USDC, and its caps (per call, per session) hold
// when the client tries to overspend with concurrent calls.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import { Client, type CallToolResult } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { catalog } from '../../src/catalog/index.ts';
import { toolgateBin } from '../support/cli-process.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { chainClients, fundedPayerKey } from '../support/payments.ts';
import { countingEchoTool } from '../support/test-tools.ts';

let t: TestGateway;
let scratch: string;
const echo = countingEchoTool('0.004');
before(async () => {
  // These tests are about exact payments (one settlement per call); paying by channel: channel-payer.test.ts.
  t = await startTestGateway({ catalog: [...catalog, echo.tool], env: { TOOLGATE_SCHEMES: 'exact' } });
  scratch = await mkdtemp(join(tmpdir(), 'toolgate-bridge-'));
});
after(async () => {
  await t?.close();
  await rm(scratch, { recursive: true, force: true });
});

async function bridge(payerKey: Hex, flags: string[]): Promise<{ mcp: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [toolgateBin, 'mcp', '--url', `${t.baseUrl}/mcp`, ...flags],
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', TOOLGATE_PAYER_KEY: payerKey, TOOLGATE_HOME: join(scratch, payerKey.slice(2, 10)) },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  const mcp = new Client({ name: 'desktop-agent', version: '1.0.0' });
  await mcp.connect(transport);
  return { mcp, stderr: () => stderr };
}

test('the bridge lists the gateway tools and pays a call: result, receipt in _meta, payTo up by exactly the price', { timeout: 90_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const { balanceOf, publicClient } = chainClients(t.devChain);
  const before = await balanceOf(t.devChain.payTo);
  const { mcp, stderr } = await bridge(key, []);
  try {
    const { tools } = await mcp.listTools();
    assert.equal(tools.length, catalog.length + 1);
    const listed = tools.find((x) => x.name === 'test_echo');
    assert.match(listed?.description ?? '', /Price: 0\.004 USDC.*Paid automatically by the local toolgate bridge \(per call at most the advertised price\)/);
    assert.deepEqual(Object.keys((listed?.inputSchema.properties ?? {}) as object), ['word']);

    const result = (await mcp.callTool({ name: 'test_echo', arguments: { word: 'desktop' } })) as CallToolResult;
    assert.notEqual(result.isError, true, JSON.stringify(result));
    assert.deepEqual(result.structuredContent, { echo: 'desktop' });
    const settlement = result._meta?.['x402/payment-response'] as { success: boolean; transaction: Hex; payer: string };
    assert.equal(settlement.success, true);
    assert.equal(settlement.payer, privateKeyToAccount(key).address);
    const receipt = result._meta?.['toolgate/receipt'] as { price: string; transaction: string };
    assert.equal(receipt.price, '0.004');
    assert.equal(receipt.transaction, settlement.transaction);
    assert.deepEqual(Object.keys(result._meta ?? {}).sort(), ['toolgate/receipt', 'x402/payment-response'], 'only the payment entries of the gateway\'s _meta pass');
    assert.equal((await publicClient.getTransactionReceipt({ hash: settlement.transaction })).status, 'success');
    assert.equal((await balanceOf(t.devChain.payTo)) - before, 4000n);
    assert.match(stderr(), /test_echo: paid 0\.004 USDC, transaction 0x[0-9a-f]{64}/);
  } finally {
    await mcp.close();
  }
});

test('a session budget of two prices under five concurrent calls: exactly two pay, the rest are error results that state the price and how to raise the cap', { timeout: 90_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const payer = privateKeyToAccount(key);
  const { balanceOf } = chainClients(t.devChain);
  const before = [await balanceOf(payer.address), await balanceOf(t.devChain.payTo)] as const;
  const runs = echo.runs.count;
  const { mcp } = await bridge(key, ['--session-budget', '0.008']);
  try {
    const results = (await Promise.all(Array.from({ length: 5 }, (_, i) => mcp.callTool({ name: 'test_echo', arguments: { word: `w${i}` } })))) as CallToolResult[];
    const paid = results.filter((r) => !r.isError);
    const refused = results.filter((r) => r.isError);
    assert.equal(paid.length, 2, JSON.stringify(refused));
    assert.equal(refused.length, 3);
    for (const r of refused) {
      const text = r.content[0]?.type === 'text' ? r.content[0].text : '';
      assert.match(text, /refused, nothing signed: test_echo costs 0\.004 USDC; 0\.008 of the session budget of 0\.008 USDC is already spent.*--session-budget/);
      assert.deepEqual({ ...(r.structuredContent as object), message: undefined }, { error: 'spend_refused', cap: 'per-session', tool: 'test_echo', price: '0.004', limit: '0.008', spent: '0.008', message: undefined });
    }
    assert.equal(echo.runs.count - runs, 2);
    assert.equal(before[0] - (await balanceOf(payer.address)), 8000n);
    assert.equal((await balanceOf(t.devChain.payTo)) - before[1], 8000n);
  } finally {
    await mcp.close();
  }
});

test('over --max-price: an error result with the price and the flag to raise, nothing signed; a tool error passes through uncharged', { timeout: 90_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const payer = privateKeyToAccount(key);
  const { balanceOf } = chainClients(t.devChain);
  const before = await balanceOf(payer.address);
  const { mcp } = await bridge(key, ['--max-price', '0.002']);
  try {
    const over = (await mcp.callTool({ name: 'test_echo', arguments: { word: 'x' } })) as CallToolResult;
    assert.equal(over.isError, true);
    assert.match(over.content[0]?.type === 'text' ? over.content[0].text : '', /test_echo costs 0\.004 USDC, above the per-call cap of 0\.002 USDC; raise it with --max-price/);
    const invalid = (await mcp.callTool({ name: 'test_echo', arguments: { word: '' } })) as CallToolResult;
    assert.equal(invalid.isError, true);
    assert.match(invalid.content[0]?.type === 'text' ? invalid.content[0].text : '', /word/);
    assert.equal(await balanceOf(payer.address), before);
  } finally {
    await mcp.close();
  }
});
