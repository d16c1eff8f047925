// Unpaid GETs of tools are answered before Fastify (src/faces/http/unpaid-fast-path.ts): the answer
// must be the very one the tool's route gives, and every other request must reach the route.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { startTestGateway } from '../support/gateway-harness.ts';
import type { TestGateway } from '../support/gateway-harness.ts';

let t: TestGateway;
before(async () => {
  t = await startTestGateway();
});
after(() => t.close());

const VARYING = new Set(['date', 'x-request-id']);
const headersOf = (response: Response) => [...response.headers].filter(([name]) => !VARYING.has(name)).sort();
const calls = (tool: string) => t.gateway.metrics.tools().get(tool)?.calls ?? 0;

test('an unpaid GET answers the same 402, byte for byte, as the route does for an empty payment header', async () => {
  const path = '/api/crypto/unit-convert?value=1.5&from=ether&to=wei';
  const fast = await fetch(`${t.baseUrl}${path}`);
  // An empty X-PAYMENT is "no payment" to the gate, but the fast path leaves it to the route.
  const routed = await fetch(`${t.baseUrl}${path}`, { headers: { 'x-payment': '' } });
  assert.equal(fast.status, 402);
  assert.equal(routed.status, 402);
  assert.equal(await fast.text(), await routed.text());
  assert.deepEqual(headersOf(fast), headersOf(routed));
  assert.match(fast.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
});

test('the caller\'s own request id comes back; a malformed one is replaced', async () => {
  const own = await fetch(`${t.baseUrl}/api/tools/uuid`, { headers: { 'x-request-id': 'agent-7.call:42' } });
  assert.equal(own.headers.get('x-request-id'), 'agent-7.call:42');
  const odd = await fetch(`${t.baseUrl}/api/tools/uuid`, { headers: { 'x-request-id': 'two words' } });
  assert.notEqual(odd.headers.get('x-request-id'), 'two words');
});

test('bad input, other methods and unknown paths reach the framework, and each call is counted once', async () => {
  const before = calls('convert_crypto_units');
  const bad = await fetch(`${t.baseUrl}/api/crypto/unit-convert?value=1&from=furlong`);
  assert.equal(bad.status, 400);
  assert.match(((await bad.json()) as { message: string }).message, /\bfrom\b/, 'the field by its HTTP name');
  assert.equal((await fetch(`${t.baseUrl}/api/crypto/unit-convert?value=1&from=gwei`, { method: 'HEAD' })).status, 402);
  assert.equal((await fetch(`${t.baseUrl}/api/crypto/unit-convert?value=1&from=gwei`)).status, 402);
  assert.equal((await fetch(`${t.baseUrl}/api/crypto/nope`)).status, 404);
  assert.equal(calls('convert_crypto_units') - before, 3, 'the 400, the HEAD and the GET, each counted once');
});
