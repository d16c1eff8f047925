import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PaymentPayload } from '@x402/core/types';
import { PAYMENT_IDENTIFIER, paymentIdentifierDeclaration, readPaymentIdentifier } from './payment-identifier.ts';

const withExtension = (extension: unknown) => ({ extensions: { [PAYMENT_IDENTIFIER]: extension } }) as unknown as PaymentPayload;
const id = 'a-payment-id-0123456789';

test('the id is read from an echoed declaration', () => {
  assert.deepEqual(readPaymentIdentifier(withExtension({ ...paymentIdentifierDeclaration, info: { required: false, id } })), { kind: 'id', id });
});

test('the schema a client echoes is never compiled: one no validator could compile, or one refusing every id, changes nothing', () => {
  // Compiling a client's schema on every paid request was free CPU for anyone sending retries (issue 21, finding 4).
  for (const schema of [{ type: 'not-a-type' }, { properties: { info: { properties: { id: { maxLength: 1 } } } } }]) {
    assert.deepEqual(readPaymentIdentifier(withExtension({ info: { required: false, id }, schema })), { kind: 'id', id });
  }
});

test('a malformed id is refused', () => {
  const reading = readPaymentIdentifier(withExtension({ info: { required: false, id: 'short' } }));
  assert.equal(reading.kind, 'invalid');
});
