// A client that sends its request slowly holds a socket for as long as the server lets it: a body
// trickled one byte at a time, or headers that never end, are cut off within the configured times
// (TOOLGATE_REQUEST_TIMEOUT_MS, TOOLGATE_HEADERS_TIMEOUT_MS), over real loopback sockets. An
// answer that takes longer than those times (a paid tool call, the legacy SSE stream) is not cut.
import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { catalog } from '../../src/catalog/index.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { fundedPayer, paymentHeader, readPaymentRequired, signPayment } from '../support/payments.ts';
import { sideEffectTool } from '../support/test-tools.ts';

const HEADERS_MS = 500;
const REQUEST_MS = 1_000;
/** How long past a limit the server may take to act (Node checks every headersMs / 4 here). */
const SLACK_MS = 1_000;

let t: TestGateway;
before(async () => {
  t = await startTestGateway({
    catalog: [...catalog, sideEffectTool(() => sleep(REQUEST_MS * 2))],
    env: { TOOLGATE_HEADERS_TIMEOUT_MS: String(HEADERS_MS), TOOLGATE_REQUEST_TIMEOUT_MS: String(REQUEST_MS) },
  });
});
after(() => t?.close());

interface Cut {
  /** What the server sent before it closed the connection. */
  answer: string;
  afterMs: number;
}

/**
 * Opens a socket to the gateway, sends `first`, then `drip` every `everyMs` until the server closes
 * the connection; gives up (and fails) after `giveUpMs`.
 */
function dripUntilClosed(first: string, drip: string, everyMs: number, giveUpMs: number): Promise<Cut> {
  const { port } = new URL(t.baseUrl);
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connect(Number(port), '127.0.0.1');
    let answer = '';
    const dripping = setInterval(() => { if (socket.writable) socket.write(drip); }, everyMs);
    const giveUp = setTimeout(() => {
      socket.destroy();
      reject(new Error(`still open after ${giveUpMs} ms; received ${JSON.stringify(answer)}`));
    }, giveUpMs);
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => { answer += chunk; });
    socket.on('error', () => undefined); // a reset after the 408 is a close like any other
    socket.on('close', () => {
      clearInterval(dripping);
      clearTimeout(giveUp);
      resolve({ answer, afterMs: Date.now() - started });
    });
    socket.write(first);
  });
}

describe('slow requests are cut off', () => {
  test('a body trickled one byte at a time gets 408 within TOOLGATE_REQUEST_TIMEOUT_MS', async () => {
    const cut = await dripUntilClosed(
      `POST /api/data/transform HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"input":"`,
      'a', 100, REQUEST_MS + SLACK_MS * 3,
    );
    assert.match(cut.answer, /^HTTP\/1\.1 408 /);
    assert.ok(cut.afterMs >= REQUEST_MS - 50 && cut.afterMs <= REQUEST_MS + SLACK_MS, `cut after ${cut.afterMs} ms`);
  });

  test('headers that never end get 408 within TOOLGATE_HEADERS_TIMEOUT_MS', async () => {
    const cut = await dripUntilClosed('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n', 'X-Slow: y\r\n', 100, HEADERS_MS + SLACK_MS * 3);
    assert.match(cut.answer, /^HTTP\/1\.1 408 /);
    assert.ok(cut.afterMs >= HEADERS_MS - 50 && cut.afterMs <= HEADERS_MS + SLACK_MS, `cut after ${cut.afterMs} ms`);
  });
});

describe('long answers are not', () => {
  test('a paid call whose tool runs twice TOOLGATE_REQUEST_TIMEOUT_MS is answered and settled', async () => {
    const url = `${t.baseUrl}/test/side-effect`;
    const post = (headers: Record<string, string> = {}) =>
      fetch(url, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: '{}' });
    const unpaid = await post();
    assert.equal(unpaid.status, 402);
    const payer = await fundedPayer(t.devChain, '1');
    const started = Date.now();
    const paid = await post({ 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, readPaymentRequired(unpaid).accepts[0]!)) });
    assert.equal(paid.status, 200, await paid.clone().text());
    assert.ok(Date.now() - started >= REQUEST_MS * 2);
  });

  test('a legacy SSE stream outlives TOOLGATE_REQUEST_TIMEOUT_MS and still carries answers', async () => {
    const controller = new AbortController();
    try {
      const response = await fetch(`${t.baseUrl}/mcp/sse`, { signal: controller.signal });
      const reader = response.body!.getReader();
      const decoder = new TextDecoder();
      let text = '';
      while (!/data: .*\n/.test(text)) text += decoder.decode((await reader.read()).value);
      const endpoint = /event: endpoint\ndata: (\S+)/.exec(text)![1]!;
      await sleep(REQUEST_MS + SLACK_MS);
      const posted = await fetch(`${t.baseUrl}${endpoint}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 42, method: 'ping' }) });
      assert.equal(posted.status, 202);
      while (!/"id":42/.test(text)) {
        const { done, value } = await reader.read();
        assert.equal(done, false, 'the stream is still open');
        text += decoder.decode(value);
      }
    } finally {
      controller.abort();
    }
  });
});
