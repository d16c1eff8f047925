// Each rule of what proves a retry is the payer's (docs/payments.md, "What proves a retry is yours").
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PaymentRequirements } from '@x402/core/types';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { signPayment } from '../../../test/support/payments.ts';
import type { SignOptions } from '../../../test/support/payments.ts';
import { parseEip3009Payload, serializeAuthorization } from '../exact-evm-payload.ts';
import type { PaymentRecord } from '../ledger/payment-ledger.ts';
import { localNetwork } from '../networks.ts';
import { requirementsFor } from '../requirements.ts';
import { provesRetry, signedForTerms } from './retry-proof.ts';
import type { RetryProofContext } from './retry-proof.ts';

const network = localNetwork(31337, '0x3600000000000000000000000000000000000000', 'USD Coin');
const requirements: PaymentRequirements = requirementsFor('0.001', { network, payTo: '0x00000000000000000000000000000000000000aa', maxTimeoutSeconds: 60 });
const payer = privateKeyToAccount(generatePrivateKey());
const now = BigInt(Math.floor(Date.now() / 1000));

async function signed(options: SignOptions = {}) {
  const payload = await signPayment(payer, requirements, options);
  const parsed = parseEip3009Payload(payload.payload);
  if (!parsed.ok) throw new Error(parsed.message);
  return { payload, authorization: parsed.value };
}

const first = await signed();
const record = { payer: payer.address, signedAuthorization: serializeAuthorization(first.authorization) } as PaymentRecord;

async function proves(options: SignOptions, context: Partial<RetryProofContext> = {}): Promise<boolean> {
  const { authorization } = await signed(options);
  const signature = await signedForTerms(authorization, requirements, network);
  assert.equal(signature, 'signed');
  return provesRetry(record, authorization, requirements, {
    signature, nowSeconds: now, ledger: { find: async () => undefined }, nonces: { authorizationUsed: async () => false }, ...context,
  });
}

test('the very authorization first sent proves it, with no chain to ask', async () => {
  assert.equal(await provesRetry(record, first.authorization, requirements, { signature: 'signed', nowSeconds: now, ledger: { find: async () => assert.fail('no ledger read') }, nonces: undefined }), true);
});

test('a fresh authorization for these terms, valid now, its nonce unused, proves it', async () => {
  assert.equal(await proves({ validAfter: now - 5n, validBefore: now + 60n }), true);
});

test('a fresh one does not, once its nonce is known to our ledger or used on chain, or without a chain to ask', async () => {
  assert.equal(await proves({}, { ledger: { find: async () => ({}) as PaymentRecord } }), false);
  assert.equal(await proves({}, { nonces: { authorizationUsed: async () => true } }), false);
  assert.equal(await proves({}, { nonces: undefined }), false);
});

test('a fresh one does not outside its window: not yet valid, expiring within 6 s, or good for longer than the requirements allow', async () => {
  assert.equal(await proves({ validAfter: now + 10n }), false);
  assert.equal(await proves({ validBefore: now + 5n }), false);
  assert.equal(await proves({ validBefore: now + 60n + 31n }), false);
  assert.equal(await proves({ validBefore: now + 60n + 30n }), true, 'the allowance for clocks ahead');
});

test('another recipient, another amount, or a signature not by `from` is no retry at all', async () => {
  const otherTo = await signed({ to: '0x00000000000000000000000000000000000000bb' });
  assert.equal(await signedForTerms(otherTo.authorization, requirements, network), 'invalid');
  const otherValue = await signed({ value: 1n });
  assert.equal(await signedForTerms(otherValue.authorization, requirements, network), 'invalid');
  const forged = await signed();
  forged.authorization.authorization.from = privateKeyToAccount(generatePrivateKey()).address;
  assert.equal(await signedForTerms(forged.authorization, requirements, network), 'invalid');
});
