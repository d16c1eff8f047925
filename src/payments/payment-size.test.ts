import assert from 'node:assert/strict';
import { test } from 'node:test';
import { MAX_PAYMENT_BYTES, paymentTooLarge } from './payment-size.ts';

const payment = {
  x402Version: 2,
  accepted: { scheme: 'exact', network: 'eip155:8453', amount: '1000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: '0x1111111111111111111111111111111111111111', maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' } },
  payload: {
    signature: `0x${'ab'.repeat(65)}`,
    authorization: { from: `0x${'22'.repeat(20)}`, to: `0x${'11'.repeat(20)}`, value: '1000', validAfter: '0', validBefore: '1999999999', nonce: `0x${'33'.repeat(32)}` },
  },
};

test('an ordinary payment, and one with a smart wallet signature of a few kilobytes, are not too large', () => {
  assert.equal(paymentTooLarge(payment), false);
  assert.equal(paymentTooLarge({ ...payment, payload: { ...payment.payload, signature: `0x${'ab'.repeat(3_000)}` } }), false);
  assert.equal(paymentTooLarge(Buffer.from(JSON.stringify(payment)).toString('base64')), false);
});

test('padding in unknown keys, long arrays, or a long header is too large, whatever its shape', () => {
  assert.equal(paymentTooLarge({ ...payment, padding: 'x'.repeat(900_000) }), true);
  assert.equal(paymentTooLarge({ ...payment, payload: { ...payment.payload, junk: Array.from({ length: 10_000 }, () => 1) } }), true);
  assert.equal(paymentTooLarge('A'.repeat(MAX_PAYMENT_BYTES + 1)), true);
  const many: Record<string, number> = {};
  for (let i = 0; i < 5_000; i += 1) many[`k${i}`] = i;
  assert.equal(paymentTooLarge({ ...payment, extensions: many }), true);
});

test('a deeply nested object is measured without recursion', () => {
  let deep: unknown = 'end';
  for (let i = 0; i < 200_000; i += 1) deep = [deep];
  assert.equal(paymentTooLarge(deep), true);
});

test('the measure is close to the JSON size it stands for', () => {
  const text = JSON.stringify(payment);
  assert.equal(paymentTooLarge(payment, Math.floor(text.length * 0.8)), true);
  assert.equal(paymentTooLarge(payment, Math.ceil(text.length * 1.3)), false);
});
