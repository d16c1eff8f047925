// calculate_math and evaluate_regex paid for over HTTP through the real gate (anvil, Circle's USDC,
// loopback): a good call is answered and settled; bad input is refused before payment is asked;
// a bomb or a catastrophic pattern is stopped and nothing is charged.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestGateway } from '../../../test/support/gateway-harness.ts';
import { startTestGateway } from '../../../test/support/gateway-harness.ts';
import { payForJson, postJson } from '../../../test/support/paid-json.ts';
import { readPaymentResponse } from '../../../test/support/payments.ts';

let t: TestGateway;
before(async () => {
  t = await startTestGateway();
});
after(() => t?.close());

const post = (path: string, body: unknown, headers: Record<string, string> = {}) => postJson(t.baseUrl, path, body, headers);

/** Asks for the price (checked), signs it, sends the paid call; returns the paid response and the balance changes. */
async function payFor(path: string, body: unknown, atomicPrice: string) {
  const call = await payForJson(t, path, body);
  assert.equal(call.amount, atomicPrice);
  return call;
}

interface InvalidInputBody {
  error: string;
  issues: { field: string; message: string }[];
  charged: boolean;
}

describe('POST /api/eval/math (calculate_math, 0.005 USDC)', () => {
  test('paid: 402, then 200 with the exact result and a settled PAYMENT-RESPONSE', async () => {
    const { response, spent, merchantGot } = await payFor('/api/eval/math', { type: 'formula', expression: '(1 + 0.05)^10 * 1000' }, '5000');
    assert.equal(response.status, 200);
    assert.equal(readPaymentResponse(response)?.success, true);
    const body = (await response.json()) as { result: string; resultType: string };
    assert.equal(body.result, '1628.89462677744140625'); // 105^10 / 10^17
    assert.equal(body.resultType, 'BigNumber');
    assert.equal(spent, 5000n);
    assert.equal(merchantGot, 5000n);
  });

  test('a compound_interest call is paid and answered too', async () => {
    const { response } = await payFor('/api/eval/math', { type: 'compound_interest', params: { principal: '1000', rate: '0.1', time: 3 } }, '5000');
    assert.equal(response.status, 200);
    assert.equal(((await response.json()) as { result: string }).result, '1331');
  });

  test('a syntax error is 400 naming expression and the character, before any payment is asked', async () => {
    const response = await post('/api/eval/math', { expression: '1 + * 2' });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('payment-required'), null);
    const body = (await response.json()) as InvalidInputBody;
    assert.equal(body.error, 'invalid_input');
    assert.equal(body.charged, false);
    assert.deepEqual(body.issues.map((i) => i.field), ['expression']);
    assert.match(body.issues[0]?.message ?? '', /Value expected at character 5/);
  });

  test('bad params are 400 naming params.<key>', async () => {
    const response = await post('/api/eval/math', { type: 'dex_slippage', params: { reserveIn: 0, reserveOut: 1, amountIn: 1 } });
    assert.equal(response.status, 400);
    const body = (await response.json()) as InvalidInputBody;
    assert.deepEqual(body.issues.map((i) => i.field), ['params.reserveIn']);
  });

  test('a paid expression bomb is stopped with 422 and nothing is charged', async () => {
    const { response, spent, merchantGot } = await payFor('/api/eval/math', { expression: 'isPrime(2^127 - 1)' }, '5000');
    assert.equal(response.status, 422);
    const body = (await response.json()) as { error: string; charged: boolean; details: { timeLimitMs: number } };
    assert.equal(body.error, 'evaluation_timeout');
    assert.equal(body.charged, false);
    assert.equal(body.details.timeLimitMs, 1000);
    assert.equal(response.headers.get('payment-response'), null);
    assert.equal(spent, 0n);
    assert.equal(merchantGot, 0n);
  });
});

describe('POST /api/tools/regex (evaluate_regex, 0.002 USDC)', () => {
  test('paid: 402, then 200 with matches, named groups and the replaced text', async () => {
    const body = { pattern: '(?<year>\\d{4})-(?<month>\\d{2})', text: 'Released 2024-05 and 2025-11', flags: 'g', replacement: '$<month>/$<year>' };
    const { response, spent } = await payFor('/api/tools/regex', body, '2000');
    assert.equal(response.status, 200);
    assert.equal(readPaymentResponse(response)?.success, true);
    const answer = (await response.json()) as { matchCount: number; matches: { index: number; groups: Record<string, string> }[]; replaced: string };
    assert.equal(answer.matchCount, 2);
    assert.deepEqual(answer.matches.map((m) => [m.index, m.groups]), [[9, { year: '2024', month: '05' }], [21, { year: '2025', month: '11' }]]);
    assert.equal(answer.replaced, 'Released 05/2024 and 11/2025');
    assert.equal(spent, 2000n);
  });

  test('an invalid pattern is 400 naming pattern with the engine\'s message, before any payment', async () => {
    const response = await post('/api/tools/regex', { pattern: '(', text: 'x' });
    assert.equal(response.status, 400);
    assert.equal(response.headers.get('payment-required'), null);
    const body = (await response.json()) as InvalidInputBody;
    assert.deepEqual(body.issues.map((i) => i.field), ['pattern']);
    assert.match(body.issues[0]?.message ?? '', /Unterminated group/);
    assert.equal(body.charged, false);
  });

  test('a paid catastrophic pattern is stopped after about a second with 422, nothing charged', async () => {
    const started = performance.now();
    const { response, spent, merchantGot } = await payFor('/api/tools/regex', { pattern: '(a+)+$', text: `${'a'.repeat(50_000)}!` }, '2000');
    assert.equal(response.status, 422);
    const body = (await response.json()) as { error: string; charged: boolean };
    assert.equal(body.error, 'regex_timeout');
    assert.equal(body.charged, false);
    assert.equal(spent, 0n);
    assert.equal(merchantGot, 0n);
    assert.ok(performance.now() - started < 10_000);
  });
});
