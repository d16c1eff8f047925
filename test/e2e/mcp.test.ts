// The MCP face, driven by the official SDK clients over both transports and both protocol eras
// (SDK 1.x on 2025-11-25 over Streamable HTTP and on legacy SSE; SDK 2.x over Streamable HTTP with
// negotiation 'auto', which lands on 2026-07-28, and over legacy SSE),
// paid with real EIP-3009 authorizations settled on anvil.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import {
  Client as ModernClient,
  SSEClientTransport as ModernSSEClientTransport,
  StreamableHTTPClientTransport as ModernStreamableHTTPClientTransport,
} from '@modelcontextprotocol/client';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult, Tool as ListedTool } from '@modelcontextprotocol/sdk/types.js';
import type { PaymentRequired, SettleResponse } from '@x402/core/types';
import type { Hex } from 'viem';
import { catalog } from '../../src/catalog/index.ts';
import type { DevChain } from '../../src/chain/devchain.ts';
import { startDevChain } from '../../src/chain/devchain.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { chainClients, fundedPayer, paymentHeader, signPayment } from '../support/payments.ts';
import { optionalBeyondSpec, optionalDespiteSpec, parseParams, tableAfter } from '../support/spec-tables.ts';
import { countingEchoTool, failingTool } from '../support/test-tools.ts';

let chain: DevChain;
let plain: TestGateway; // exactly the catalogue
let withTestTools: TestGateway; // plus tools that count runs or fail on purpose
const echo = countingEchoTool('0.002');

before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
  [plain, withTestTools] = await Promise.all([
    startTestGateway({ devChain: chain }),
    startTestGateway({ devChain: chain, catalog: [...catalog, echo.tool, failingTool('0.002')] }),
  ]);
});
after(async () => {
  await Promise.all([plain?.close(), withTestTools?.close()]);
  await chain?.stop();
});

/** What the tests use of a client; the 1.x and 2.x SDK clients both have it. */
interface TestClient {
  getServerVersion(): { version: string } | undefined;
  listTools(): Promise<{ tools: ListedTool[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> }): Promise<unknown>;
  close(): Promise<void>;
}

const transports = ['streamable-http', 'legacy-sse', 'streamable-http-2026', 'legacy-sse-sdk2'] as const;
type TransportKind = (typeof transports)[number];

async function connect(kind: TransportKind, base: string, headers?: Record<string, string>): Promise<TestClient> {
  const requestInit = headers ? { requestInit: { headers } } : undefined;
  if (kind === 'streamable-http-2026') {
    // Negotiation 'auto' probes server/discover and must land on 2026-07-28 (the 2.x default, 'legacy', speaks 2025-11-25).
    const client = new ModernClient({ name: 'toolgate-test', version: '2.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(new ModernStreamableHTTPClientTransport(new URL(`${base}/mcp`), requestInit));
    assert.equal(client.getNegotiatedProtocolVersion(), '2026-07-28');
    return client as unknown as TestClient; // its result types are the 2.x ones, structurally those the assertions read
  }
  if (kind === 'legacy-sse-sdk2') {
    const client = new ModernClient({ name: 'toolgate-test', version: '2.0.0' });
    await client.connect(new ModernSSEClientTransport(new URL(`${base}/mcp/sse`)));
    return client as unknown as TestClient;
  }
  const client = new Client({ name: 'toolgate-test', version: '1.0.0' });
  await client.connect(kind === 'streamable-http'
    ? new StreamableHTTPClientTransport(new URL(`${base}/mcp`), requestInit)
    : new SSEClientTransport(new URL(`${base}/mcp/sse`)));
  return client;
}

const paymentRequiredOf = (result: CallToolResult) => result.structuredContent as unknown as PaymentRequired;
const settlementOf = (result: CallToolResult) => result._meta?.['x402/payment-response'] as SettleResponse | undefined;

for (const kind of transports) {
  describe(`over ${kind}`, () => {
    test('lists the 28 tools of the spec with their inputs, defaults and ranges, and serverInfo 2.3.0', async () => {
      const client = await connect(kind, plain.baseUrl);
      try {
        assert.equal(client.getServerVersion()?.version, '2.3.0');
        const { tools } = await client.listTools();
        const rows = tableAfter('### MCP tools');
        assert.equal(tools.length, 28);
        assert.deepEqual(tools.map((t) => t.name).sort(), rows.map((r) => r[0]).sort());
        for (const [name, inputs, price] of rows) {
          const listed = tools.find((t) => t.name === name)!;
          assert.match(listed.description ?? '', new RegExp(`Price: ${price!.replace('.', '\\.')} USDC per call`), `${name}: price in description`);
          assert.equal(listed.annotations?.readOnlyHint, true);
          assert.equal(typeof listed.annotations?.openWorldHint, 'boolean');
          assert.equal(listed.outputSchema, undefined, `${name}: no outputSchema (it breaks clients on the payment-required result)`);
          const properties = (listed.inputSchema.properties ?? {}) as Record<string, { default?: unknown; minimum?: number; maximum?: number }>;
          const required = new Set(listed.inputSchema.required ?? []);
          const params = parseParams(inputs!, false);
          const beyond = Object.keys(properties).filter((input) => optionalBeyondSpec[`${name}.${input}`] !== undefined);
          for (const input of beyond) assert.equal(required.has(input), false, `${name}.${input}: beyond the spec, so optional`);
          assert.deepEqual(Object.keys(properties).sort(), [...params.map((p) => p.name), ...beyond].sort(), `${name}: inputs`);
          for (const param of params) {
            const optional = optionalDespiteSpec[`${name}.${param.name}`] !== undefined;
            assert.equal(required.has(param.name), param.required && !optional, `${name}.${param.name}: required`);
            if (param.default !== undefined) assert.equal(String(properties[param.name]?.default), param.default, `${name}.${param.name}: default`);
            if (param.range) assert.deepEqual([properties[param.name]?.minimum, properties[param.name]?.maximum], param.range, `${name}.${param.name}: range`);
          }
        }
      } finally {
        await client.close();
      }
    });

    test('an unpaid call returns the payment-required result; a paid one settles on chain; the same authorization is refused next time', async () => {
      const client = await connect(kind, withTestTools.baseUrl);
      try {
        const unpaid = (await client.callTool({ name: 'test_echo', arguments: { word: 'mcp' } })) as CallToolResult;
        assert.equal(unpaid.isError, true);
        const required = paymentRequiredOf(unpaid);
        assert.equal(required.x402Version, 2);
        assert.equal(required.resource.url, 'mcp://tool/test_echo');
        assert.equal(required.accepts[0]?.amount, '2000');
        assert.deepEqual(JSON.parse((unpaid.content[0] as { text: string }).text), required);
        assert.deepEqual(unpaid._meta?.['x402/error'], required);

        const payer = await fundedPayer(chain);
        const { balanceOf, publicClient } = chainClients(chain);
        const before = await balanceOf(payer.address);
        const payment = await signPayment(payer, required.accepts[0]!);
        const paid = (await client.callTool({ name: 'test_echo', arguments: { word: 'mcp' }, _meta: { 'x402/payment': payment } })) as CallToolResult;
        assert.notEqual(paid.isError, true, JSON.stringify(paid));
        assert.deepEqual(paid.structuredContent, { echo: 'mcp' });
        const settlement = settlementOf(paid)!;
        assert.equal(settlement.success, true);
        assert.equal(settlement.payer, payer.address);
        assert.equal((await publicClient.getTransactionReceipt({ hash: settlement.transaction as Hex })).status, 'success');
        assert.equal(before - (await balanceOf(payer.address)), 2000n);

        const again = (await client.callTool({ name: 'test_echo', arguments: { word: 'mcp' }, _meta: { 'x402/payment': payment } })) as CallToolResult;
        assert.equal(again.isError, true);
        assert.match(paymentRequiredOf(again).error ?? '', /already used/);
        assert.equal(await balanceOf(payer.address), before - 2000n);
      } finally {
        await client.close();
      }
    });

    test('invalid arguments and unknown tools are errors that cost nothing', async () => {
      const client = await connect(kind, withTestTools.baseUrl);
      try {
        const payer = await fundedPayer(chain);
        const required = paymentRequiredOf((await client.callTool({ name: 'test_echo', arguments: { word: 'x' } })) as CallToolResult);
        const payment = await signPayment(payer, required.accepts[0]!);
        const runs = echo.runs.count;
        const invalid = (await client.callTool({ name: 'test_echo', arguments: { word: 42 }, _meta: { 'x402/payment': payment } })) as CallToolResult;
        assert.equal(invalid.isError, true);
        assert.equal((invalid.structuredContent as { error: string }).error, 'invalid_input');
        assert.match((invalid.content[0] as { text: string }).text, /word: .*expected string/);
        assert.equal(echo.runs.count, runs);
        await assert.rejects(client.callTool({ name: 'no_such_tool', arguments: {}, _meta: { 'x402/payment': payment } }), (error: unknown) => {
          assert.equal((error as { code?: number }).code, -32602);
          assert.match(String(error), /Unknown tool "no_such_tool"/);
          return true;
        });
        // The authorization was untouched by both: it still buys one call.
        const paid = (await client.callTool({ name: 'test_echo', arguments: { word: 'x' }, _meta: { 'x402/payment': payment } })) as CallToolResult;
        assert.equal(settlementOf(paid)?.success, true);
      } finally {
        await client.close();
      }
    });

    test('a tool that fails is an error result, and nothing is settled', async () => {
      const client = await connect(kind, withTestTools.baseUrl);
      try {
        const payer = await fundedPayer(chain);
        const required = paymentRequiredOf((await client.callTool({ name: 'test_failing', arguments: {} })) as CallToolResult);
        const { balanceOf } = chainClients(chain);
        const before = await balanceOf(payer.address);
        const failed = (await client.callTool({ name: 'test_failing', arguments: {}, _meta: { 'x402/payment': await signPayment(payer, required.accepts[0]!) } })) as CallToolResult;
        assert.equal(failed.isError, true);
        assert.equal((failed.structuredContent as { error: string; charged: boolean }).charged, false);
        assert.equal(settlementOf(failed), undefined);
        assert.equal(await balanceOf(payer.address), before);
      } finally {
        await client.close();
      }
    });
  });
}

describe('payment carriers', () => {
  for (const kind of ['streamable-http', 'streamable-http-2026'] as const) {
    test(`${kind}: a base64 string in _meta["x402/payment"], the _meta["x402.payment"] key and the PAYMENT-SIGNATURE header all pay`, async () => {
      const payer = await fundedPayer(chain);
      const probe = await connect(kind, withTestTools.baseUrl);
      const required = paymentRequiredOf((await probe.callTool({ name: 'test_echo', arguments: { word: 'a' } })) as CallToolResult);
      const asBase64 = (await probe.callTool({
        name: 'test_echo', arguments: { word: 'a' }, _meta: { 'x402/payment': paymentHeader(await signPayment(payer, required.accepts[0]!)) },
      })) as CallToolResult;
      assert.equal(settlementOf(asBase64)?.success, true);
      const dotted = (await probe.callTool({ name: 'test_echo', arguments: { word: 'b' }, _meta: { 'x402.payment': await signPayment(payer, required.accepts[0]!) } })) as CallToolResult;
      assert.equal(settlementOf(dotted)?.success, true);
      await probe.close();

      const withHeader = await connect(kind, withTestTools.baseUrl, { 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, required.accepts[0]!)) });
      const viaHeader = (await withHeader.callTool({ name: 'test_echo', arguments: { word: 'c' } })) as CallToolResult;
      assert.equal(settlementOf(viaHeader)?.success, true);
      await withHeader.close();
    });
  }
});

test('a malformed payment is an error result naming the problem, with the requirements to start over; the tool does not run', async () => {
  const client = await connect('streamable-http', withTestTools.baseUrl);
  const runsBefore = echo.runs.count;
  for (const [payment, problem] of [
    ['not base64 at all!', /^invalid_payload: the payment is not base64-encoded JSON/],
    [{ x402Version: 1, payload: {} }, /^invalid_payload: x402Version 1/],
    [{ hello: 1 }, /^invalid_payload/],
  ] as const) {
    const result = (await client.callTool({ name: 'test_echo', arguments: { word: 'm' }, _meta: { 'x402/payment': payment } })) as CallToolResult;
    assert.equal(result.isError, true);
    const required = paymentRequiredOf(result);
    assert.match(required.error ?? '', problem);
    assert.deepEqual(required.accepts.map((a) => a.scheme), ['exact', 'batch-settlement']);
    assert.equal(settlementOf(result), undefined);
  }
  assert.equal(echo.runs.count, runsBefore);
  await client.close();
});

describe('transport rules', () => {
  const post = (base: string, headers: Record<string, string>, body: string) =>
    fetch(`${base}/mcp`, { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body });
  const ping = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });

  test('a foreign Origin is refused with 403; localhost and no Origin pass', async () => {
    const evil = await post(plain.baseUrl, { origin: 'http://evil.example' }, ping);
    assert.equal(evil.status, 403);
    assert.match(((await evil.json()) as { error: { message: string } }).error.message, /Origin "http:\/\/evil.example" is not allowed/);
    assert.equal((await post(plain.baseUrl, { origin: 'http://localhost:3000' }, ping)).status, 200);
    assert.equal((await post(plain.baseUrl, {}, ping)).status, 200);
    const sse = await fetch(`${plain.baseUrl}/mcp/sse`, { headers: { origin: 'http://evil.example' } });
    assert.equal(sse.status, 403);
  });

  test('a rebinding Host is refused with 403', async () => {
    const { request } = await import('node:http');
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(`${plain.baseUrl}/mcp`, { method: 'POST', headers: { host: 'evil.example', 'content-type': 'application/json', accept: 'application/json, text/event-stream' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end(ping);
    });
    assert.equal(status, 403);
  });

  test('GET and DELETE on /mcp answer 405; broken JSON is a JSON-RPC parse error; Accept without event-stream is 406', async () => {
    assert.equal((await fetch(`${plain.baseUrl}/mcp`)).status, 405);
    assert.equal((await fetch(`${plain.baseUrl}/mcp`, { method: 'DELETE' })).status, 405);
    const broken = await post(plain.baseUrl, {}, '{"jsonrpc":');
    assert.equal(broken.status, 400);
    assert.equal(((await broken.json()) as { error: { code: number } }).error.code, -32700);
    assert.equal((await post(plain.baseUrl, { accept: 'application/json' }, ping)).status, 406);
  });

  test('legacy SSE: endpoint event, 202 on POST, 400 for a non-JSON-RPC body, unknown session 404, no sessions left after 1,000 connect/disconnect cycles', async () => {
    const unknown = await fetch(`${plain.baseUrl}/mcp/messages?sessionId=nope`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ping });
    assert.equal(unknown.status, 404);

    const open = async () => {
      const controller = new AbortController();
      const response = await fetch(`${plain.baseUrl}/mcp/sse`, { signal: controller.signal });
      const reader = response.body!.getReader();
      let text = '';
      while (!/data: .*\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
      return { controller, reader, endpoint: /event: endpoint\ndata: (\S+)/.exec(text)![1]! };
    };
    const session = await open();
    assert.match(session.endpoint, /^\/mcp\/messages\?sessionId=[0-9a-f-]{36}$/);
    const accepted = await fetch(`${plain.baseUrl}${session.endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ping });
    assert.equal(accepted.status, 202);
    const notJsonRpc = await fetch(`${plain.baseUrl}${session.endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"hello":"world"}' });
    assert.equal(notJsonRpc.status, 400);
    session.controller.abort();

    const heapBefore = process.memoryUsage().heapUsed;
    for (let i = 0; i < 1000; i += 1) {
      const s = await open();
      s.controller.abort();
    }
    const deadline = Date.now() + 5_000;
    while (plain.gateway.sseSessions.size > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    assert.equal(plain.gateway.sseSessions.size, 0, 'every closed stream ended its session');
    const gone = await fetch(`${plain.baseUrl}${session.endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: ping });
    assert.equal(gone.status, 404, 'a closed stream\'s session is gone');
    assert.ok(process.memoryUsage().heapUsed - heapBefore < 64 * 1024 * 1024, 'no runaway heap growth');
  });
});

describe('legacy SSE limits', () => {
  const refusalOf = async (response: Response) => ((await response.json()) as { error: { message: string; data: { limit: string } } }).error;

  test('one client holds at most TOOLGATE_MAX_SSE_SESSIONS_PER_CLIENT streams (429 past it) while another still gets one; past TOOLGATE_MAX_SSE_SESSIONS everyone gets 503; a closed one frees its place', async () => {
    const capped = await startTestGateway({
      devChain: chain,
      env: { TOOLGATE_MAX_SSE_SESSIONS: '4', TOOLGATE_MAX_SSE_SESSIONS_PER_CLIENT: '3', TOOLGATE_TRUSTED_PROXIES: '127.0.0.1' },
    });
    const streams: AbortController[] = [];
    const open = async (client: string) => {
      const controller = new AbortController();
      const response = await fetch(`${capped.baseUrl}/mcp/sse`, { signal: controller.signal, headers: { 'x-forwarded-for': client } });
      streams.push(controller);
      return response;
    };
    try {
      for (let i = 0; i < 3; i += 1) assert.equal((await open('198.51.100.1')).status, 200);
      const perClient = await open('198.51.100.1');
      assert.equal(perClient.status, 429);
      assert.ok(Number(perClient.headers.get('retry-after')) >= 1, 'Retry-After: when its oldest stream would idle out');
      const perClientError = await refusalOf(perClient);
      assert.equal(perClientError.data.limit, 'per-client');
      assert.match(perClientError.message, /Too many open SSE sessions from your address \(3 per client\)/);
      assert.equal((await open('198.51.100.2')).status, 200, 'another client still gets a stream');

      const global = await open('198.51.100.3');
      assert.equal(global.status, 503);
      assert.equal(global.headers.get('retry-after'), '5');
      const globalError = await refusalOf(global);
      assert.equal(globalError.data.limit, 'global');
      assert.match(globalError.message, /Too many open SSE sessions \(4\)/);

      streams[0]!.abort();
      const deadline = Date.now() + 5_000;
      while (capped.gateway.sseSessions.size > 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.equal((await open('198.51.100.1')).status, 200, 'a closed stream frees its place for its client');
    } finally {
      for (const stream of streams) stream.abort();
      await capped.close();
    }
  });

  test('a stream nobody posts to for TOOLGATE_SSE_IDLE_TIMEOUT_S is closed; one that gets messages stays open', async () => {
    const idle = await startTestGateway({ devChain: chain, env: { TOOLGATE_SSE_IDLE_TIMEOUT_S: '1' } });
    const controllers: AbortController[] = [];
    const open = async () => {
      const controller = new AbortController();
      controllers.push(controller);
      const response = await fetch(`${idle.baseUrl}/mcp/sse`, { signal: controller.signal });
      const reader = response.body!.getReader();
      let text = '';
      while (!/data: .*\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
      return { reader, endpoint: /event: endpoint\ndata: (\S+)/.exec(text)![1]! };
    };
    const readToEnd = async (reader: ReadableStreamDefaultReader<Uint8Array>) => {
      let text = '';
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return text;
        text += new TextDecoder().decode(value);
      }
    };
    try {
      const quiet = await open();
      const busy = await open();
      const started = Date.now();
      const quietEnd = readToEnd(quiet.reader);
      let busyEnded = false;
      void readToEnd(busy.reader).then(() => { busyEnded = true; }, () => { busyEnded = true; });
      // Every 300 ms, a ping to the busy one only.
      while (Date.now() - started < 2_000) {
        const posted = await fetch(`${idle.baseUrl}${busy.endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
        assert.equal(posted.status, 202);
        await new Promise((r) => setTimeout(r, 300));
      }
      const closing = await Promise.race([quietEnd, new Promise<undefined>((r) => setTimeout(r, 5_000, undefined))]);
      assert.notEqual(closing, undefined, 'the quiet stream was ended by the server');
      assert.match(closing ?? '', /: closed: no message posted to this session for 1 s/);
      assert.equal(busyEnded, false, 'the stream that got messages is still open');
      assert.equal(idle.gateway.sseSessions.size, 1);
      const gone = await fetch(`${idle.baseUrl}${quiet.endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }) });
      assert.equal(gone.status, 404);
    } finally {
      for (const controller of controllers) controller.abort();
      await idle.close();
    }
  });
});

test('/.well-known/mcp.json describes the server as the spec lists it', async () => {
  const description = (await (await fetch(`${plain.baseUrl}/.well-known/mcp.json`)).json()) as {
    protocol: string; protocolVersions: string[]; transports: { type: string }[]; x402Gated: boolean; toolCount: number; version: string; tools: { name: string; price: { amount: string } }[];
  };
  assert.equal(description.protocol, 'mcp-jsonrpc-2.0');
  assert.deepEqual(description.protocolVersions.slice(0, 2), ['2026-07-28', '2025-11-25']);
  assert.deepEqual(description.transports.map((t) => t.type), ['http-post', 'sse']);
  assert.equal(description.x402Gated, true);
  assert.equal(description.toolCount, 28);
  assert.equal(description.version, '2.3.0');
  for (const tool of catalog) assert.equal(description.tools.find((t) => t.name === tool.name)?.price.amount, tool.price);
});
