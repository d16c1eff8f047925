import assert from 'node:assert/strict';
import { test } from 'node:test';
import { decodePaymentRequiredHeader, encodePaymentRequiredHeader } from '@x402/core/http';
import type { PaymentRequired } from '@x402/core/types';
import { base64Json } from './payment-headers.ts';

test('the fast header encoder writes exactly what @x402/core writes, unicode included', () => {
  const required: PaymentRequired = {
    x402Version: 2,
    error: 'Payment required: prix 0,005 € — 東京 ✓ 🚀',
    resource: { url: 'http://localhost/api/tools/qr', description: 'héllo wörld', mimeType: 'application/json' },
    accepts: [{
      scheme: 'exact', network: 'eip155:8453', amount: '2000', asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      payTo: '0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65', maxTimeoutSeconds: 300, extra: { name: 'USD Coin', version: '2' },
    }],
  };
  const ours = base64Json(JSON.stringify(required));
  assert.equal(ours, encodePaymentRequiredHeader(required));
  assert.deepEqual(decodePaymentRequiredHeader(ours), required);
});
