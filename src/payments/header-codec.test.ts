import assert from 'node:assert/strict';
import test from 'node:test';
import * as official from '@x402/core/http';
import type { PaymentPayload, SettleResponse } from '@x402/core/types';
import { decodePaymentSignatureHeader, encodePaymentResponseHeader } from './header-codec.ts';

const outcome = (run: () => unknown) => {
  try {
    return { value: run() };
  } catch {
    return { threw: true };
  }
};

const payload = {
  x402Version: 2,
  resource: { url: 'https://example.test/api/tools/uuid', description: 'ünïcödé — 名前 🦊', mimeType: 'application/json' },
  accepted: { scheme: 'batch-settlement', network: 'eip155:8453', amount: '1000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', payTo: '0x1111111111111111111111111111111111111111', maxTimeoutSeconds: 60, extra: {} },
  payload: { type: 'voucher', channelId: `0x${'ab'.repeat(32)}`, maxClaimableAmount: '5000', signature: `0x${'cd'.repeat(65)}` },
} as unknown as PaymentPayload;

test('a payment header decodes to what the official decoder gives, with and without its padding', () => {
  for (const extra of ['', ' ', '  ']) {
    const header = official.encodePaymentSignatureHeader({ ...payload, resource: { ...payload.resource, description: `x${extra}` } } as PaymentPayload);
    for (const variant of [header, header.replace(/=+$/, '')]) {
      assert.deepEqual(decodePaymentSignatureHeader(variant), official.decodePaymentSignatureHeader(variant));
    }
  }
  assert.deepEqual(decodePaymentSignatureHeader(official.encodePaymentSignatureHeader(payload)), payload);
});

test('a malformed header is refused exactly where the official decoder refuses it', () => {
  const valid = official.encodePaymentSignatureHeader(payload);
  const cases = ['', '=', '==', 'e30', 'e30=', 'e30==', 'e3=0', 'e30A', 'e30AA', 'e30===', 'e-30', 'e_30', 'e30\n', ' e30',
    `${valid}A`, `${valid}AB`, valid.slice(0, -1), valid.slice(0, -2), valid.slice(0, -3), `${valid.replace(/=+$/, '')}=`, `${valid}=`];
  // And random strings over the alphabet with padding, at every length up to 12.
  const alphabet = 'eyJ9fQ30AB+/=';
  let seed = 7;
  for (let i = 0; i < 3000; i++) {
    let s = '';
    const length = i % 13;
    for (let j = 0; j < length; j++) s += alphabet[(seed = (seed * 1103515245 + 12345) & 0x7fffffff) % alphabet.length];
    cases.push(s);
  }
  for (const header of cases) {
    assert.deepEqual(outcome(() => decodePaymentSignatureHeader(header)), outcome(() => official.decodePaymentSignatureHeader(header)), JSON.stringify(header));
  }
});

test('a PAYMENT-RESPONSE header is the official encoding, byte for byte, without the extension responses', () => {
  const response = {
    success: true, payer: '0x2222222222222222222222222222222222222222', transaction: '', network: 'eip155:8453', amount: '1000',
    extra: { channelState: { channelId: `0x${'ab'.repeat(32)}`, chargedCumulativeAmount: '5000', note: 'ü 🦊' } },
    extensionResponses: { 'payment-identifier': { id: 'kept server-side' } },
  } as unknown as SettleResponse;
  assert.equal(encodePaymentResponseHeader(response), official.encodePaymentResponseHeader(response));
  assert.equal('extensionResponses' in official.decodePaymentResponseHeader(encodePaymentResponseHeader(response)), false);
  const plain = { success: false, errorReason: 'invalid_payload', transaction: '', network: 'eip155:84532' } as unknown as SettleResponse;
  assert.equal(encodePaymentResponseHeader(plain), official.encodePaymentResponseHeader(plain));
});
