import assert from 'node:assert/strict';
import test from 'node:test';
import { decodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { encoded402, queryOf } from './payment-required-answer.ts';

const required = {
  x402Version: 2,
  error: 'Payment required: "resource":{"url":"https://x/api/t"}',
  resource: { url: 'https://x/api/t', description: 'T', mimeType: 'application/json' },
  accepts: [{ scheme: 'exact', network: 'eip155:8453', amount: '1000', asset: '0xa', payTo: '0xb', maxTimeoutSeconds: 60, extra: {} }],
  extensions: { bazaar: { info: { input: { type: 'http', method: 'GET', queryParams: { q: 'x' } } } } },
} as unknown as PaymentRequired;

test('names the URL as asked, query included, in the body and in PAYMENT-REQUIRED alike', () => {
  const answer = encoded402(required, '?q=caf%C3%A9&x="quoted"');
  const expected = { ...required, resource: { ...required.resource, url: 'https://x/api/t?q=caf%C3%A9&x="quoted"' } };
  assert.deepEqual(JSON.parse(answer.json), expected);
  assert.deepEqual(decodePaymentRequiredHeader(answer.header), expected);
  assert.ok(answer.rawHeaders.includes(String(Buffer.byteLength(answer.json))), 'content-length of this answer');
});

test('without a query: the route\'s own answer, encoded once', () => {
  assert.equal(encoded402(required, ''), encoded402(required));
  assert.deepEqual(JSON.parse(encoded402(required, '?').json), required);
});

test('queryOf keeps the query as sent', () => {
  assert.equal(queryOf('/api/t?a=1&b=x+y'), '?a=1&b=x+y');
  assert.equal(queryOf('/api/t'), '');
});

test('the spliced header is standard base64 of the JSON, whatever the byte alignment and the characters', () => {
  for (const error of ['e', 'ee', 'eee', 'é']) {
    const shifted = { ...required, error } as PaymentRequired;
    for (const query of ['?q=1', '?q=12', '?q=123', '?q=café', '?q=%F0%9F%98%80']) {
      const answer = encoded402(shifted, query);
      assert.equal(answer.header, Buffer.from(answer.json, 'utf8').toString('base64'), `${error} ${query}`);
      assert.equal(JSON.parse(answer.json).resource.url, `https://x/api/t${query}`);
      assert.ok(answer.rawHeaders.includes(String(Buffer.byteLength(answer.json))));
    }
  }
});
