// transform_data_format over real HTTP through the payment gate (anvil + USDC): a paid call is
// answered and settled; input bad on its face is refused with a 400 naming the field before any
// payment; what only the conversion finds is found after payment and released, not charged.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestGateway } from '../../../test/support/gateway-harness.ts';
import { startTestGateway } from '../../../test/support/gateway-harness.ts';
import { chainClients, fundedPayer, paymentHeader, readPaymentRequired, readPaymentResponse, signPayment } from '../../../test/support/payments.ts';

let t: TestGateway;
before(async () => {
  t = await startTestGateway();
});
after(() => t?.close());

const post = (body: unknown, headers: Record<string, string> = {}) =>
  fetch(`${t.baseUrl}/api/data/transform`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });

describe('POST /api/data/transform through the gate', () => {
  test('unpaid -> 402 for 0.003 USDC; paid -> 200 with the CSV, settled on chain, balance down by the price', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const { balanceOf } = chainClients(t.devChain);
    const body = { input: [{ name: 'Ada', note: 'says "hi", twice' }, { name: 'Linus', city: 'Helsinki' }], toFormat: 'csv' };
    const unpaid = await post(body);
    assert.equal(unpaid.status, 402);
    const requirements = readPaymentRequired(unpaid).accepts[0]!;
    assert.equal(requirements.amount, '3000');

    const before = await balanceOf(payer.address);
    const paid = await post(body, { 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, requirements)) });
    assert.equal(paid.status, 200, await paid.clone().text());
    assert.equal(readPaymentResponse(paid)?.success, true);
    assert.deepEqual(await paid.json(), {
      toFormat: 'csv',
      output: 'name,note,city\r\nAda,"says ""hi"", twice",\r\nLinus,,Helsinki\r\n',
      rows: 2,
      columns: ['name', 'note', 'city'],
    });
    assert.equal(before - (await balanceOf(payer.address)), 3000n);
  });

  test('input bad on its face -> 400 naming input, nothing asked for or charged', async () => {
    const cases: [unknown, RegExp][] = [
      [{ toFormat: 'csv' }, /required/],
      [{ input: 42 }, /expected a JSON array of objects/],
      [{ input: [{ a: 1 }, 'x'] }, /record 1 is a string/],
      [{ input: [{ a: 1 }], toFormat: 'json' }, /already a JSON array/],
      [{ input: 'a,b\n1,2\n', toFormat: 'csv' }, /starting with "\["; it starts with "a"/],
    ];
    for (const [body, message] of cases) {
      const response = await post(body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(response.headers.get('payment-required'), null, 'no payment is asked for');
      const answer = await response.json() as { error: string; charged: boolean; issues: { field: string; message: string }[] };
      assert.equal(answer.error, 'invalid_input');
      assert.equal(answer.charged, false);
      assert.ok(answer.issues.some((issue) => /^input(\.|$)/.test(issue.field) && message.test(issue.message)), JSON.stringify(answer));
    }
    const wrongFormat = await (await post({ input: [{ a: 1 }], toFormat: 'xml' })).json() as { issues: { field: string }[] };
    assert.equal(wrongFormat.issues[0]?.field, 'toFormat');
  });

  test('an unpaid 1 MB CSV is not converted: broken on its last line it still gets the 402; paid, the conversion finds it: 400 naming input, released, not charged', async () => {
    // Before the fix the schema converted it, so the unpaid answer was a 400 that cost the conversion.
    const row = '12345,"Smith, Jane",3.25,true\n';
    const body = { input: `id,name,score,active\n${row.repeat(Math.floor(900 * 1024 / row.length))}1,"never closed\n`, toFormat: 'json' };
    const unpaid = await post(body);
    assert.equal(unpaid.status, 402, await unpaid.clone().text());

    const payer = await fundedPayer(t.devChain, '1');
    const { balanceOf } = chainClients(t.devChain);
    const before = await balanceOf(payer.address);
    const paid = await post(body, { 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, readPaymentRequired(unpaid).accepts[0]!)) });
    assert.equal(paid.status, 400);
    assert.equal(readPaymentResponse(paid), undefined, 'nothing settled');
    const answer = await paid.json() as { error: string; message: string; charged: boolean; details: { issues: { field: string; message: string }[] } };
    assert.equal(answer.error, 'invalid_input');
    assert.equal(answer.charged, false);
    assert.match(answer.message, /^input: not valid CSV \(RFC 4180\): line \d+, column 3: a quoted field is never closed/);
    assert.equal(answer.details.issues[0]?.field, 'input');
    assert.equal(await balanceOf(payer.address), before);
  });

  test('a body over the gateway\'s 1 MiB limit is refused with a clear answer, uncharged', async () => {
    const response = await post({ input: `a\n${'x\n'.repeat(600_000)}`, toFormat: 'json' });
    assert.equal(response.status, 400);
    const answer = await response.json() as { charged: boolean; issues: { field: string; message: string }[] };
    assert.equal(answer.charged, false);
    assert.equal(answer.issues[0]?.field, 'body');
    assert.match(answer.issues[0]?.message ?? '', /larger than the 1048576 bytes/);
  });
});
