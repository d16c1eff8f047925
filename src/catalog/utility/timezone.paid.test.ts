// calculate_timezone_and_markets over real HTTP through the payment gate (anvil + USDC). The gate
// runs on the real clock, so this checks what holds at any instant; pinned instants are in
// timezone.test.ts and exchange-sessions.test.ts.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestGateway } from '../../../test/support/gateway-harness.ts';
import { startTestGateway } from '../../../test/support/gateway-harness.ts';
import { chainClients, fundedPayer, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from '../../../test/support/payments.ts';
import type { TimezoneAnswer } from './timezone.ts';

let t: TestGateway;
before(async () => {
  t = await startTestGateway();
});
after(() => t?.close());

const get = (query: string, headers: Record<string, string> = {}) => fetch(`${t.baseUrl}/api/tools/timezone${query}`, { headers });

describe('GET /api/tools/timezone through the gate', () => {
  test('unpaid -> 402 for 0.002 USDC; paid -> 200 for a city, settled, balance down by the price', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const { balanceOf } = chainClients(t.devChain);
    const unpaid = await get('?timezone=Tokyo');
    assert.equal(unpaid.status, 402);
    const requirements = readPaymentRequired(unpaid).accepts[0]!;
    assert.equal(requirements.amount, '2000');

    const before = await balanceOf(payer.address);
    const startedAt = Date.now();
    const paid = await get('?timezone=Tokyo', { 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, requirements)) });
    assert.equal(paid.status, 200, await paid.clone().text());
    assert.equal(readPaymentResponse(paid)?.success, true);
    const answer = await paid.json() as TimezoneAnswer;
    assert.equal(answer.timezone, 'Asia/Tokyo');
    assert.equal(answer.matchedBy, 'city');
    assert.equal(answer.utcOffset, '+09:00');
    assert.equal(answer.abbreviation, 'JST');
    assert.equal(answer.nextTransition, null);
    assert.ok(Math.abs(Date.parse(answer.utcTime) - startedAt) < 60_000, 'the answer is about now');
    assert.equal(Date.parse(answer.localTime), Date.parse(answer.utcTime));
    assert.deepEqual(answer.markets.map((m) => m.exchange), ['NYSE', 'LSE', 'TSE', 'HKEX']);
    for (const market of answer.markets) {
      assert.ok(['open', 'closed', 'pre_open', 'lunch_break'].includes(market.status), market.status);
      assert.ok(Date.parse(market.nextOpen!) > startedAt - 60_000 && Date.parse(market.nextClose!) > startedAt - 60_000);
    }
    assert.equal(before - (await balanceOf(payer.address)), 2000n);
  });

  test('the default is UTC', async () => {
    const unpaid = await get('');
    assert.equal(unpaid.status, 402, 'a valid call (no parameter) asks for payment');
  });

  test('unknown zone or city -> 400 naming timezone, with suggestions, nothing asked for or charged', async () => {
    for (const [query, message] of [['?timezone=Pariss', /did you mean: Paris, France \(Europe\/Paris\)/], ['?timezone=Narnia', /unknown time zone or city/], ['?timezone=', /timezone/]] as const) {
      const response = await get(query);
      assert.equal(response.status, 400, query);
      assert.equal(response.headers.get('payment-required'), null);
      const answer = await response.json() as { error: string; charged: boolean; issues: { field: string; message: string }[] };
      assert.equal(answer.error, 'invalid_input');
      assert.equal(answer.charged, false);
      assert.equal(answer.issues[0]?.field, 'timezone');
      assert.match(answer.issues[0]?.message ?? '', message);
    }
  });
});
