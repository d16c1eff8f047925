import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { PaymentRequirements } from '@x402/core/types';
import { matchAccepted } from './requirements.ts';

const ours: PaymentRequirements = {
  scheme: 'exact',
  network: 'eip155:8453',
  amount: '1000',
  asset: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  payTo: '0x1111111111111111111111111111111111111111',
  maxTimeoutSeconds: 300,
  extra: { name: 'USD Coin', version: '2' },
};

test('the accepted requirements match when every field we offered is echoed (addresses in any case, extra keys added)', () => {
  const accepted = { ...ours, asset: ours.asset.toLowerCase(), extra: { ...ours.extra, note: 'client key' } };
  assert.deepEqual(matchAccepted(accepted, [ours]), { ok: true, requirements: ours });
});

test('a client cannot grant itself a longer time allowance: maxTimeoutSeconds is compared too', () => {
  const verdict = matchAccepted({ ...ours, maxTimeoutSeconds: 999_999 }, [ours]);
  assert.deepEqual(verdict, { ok: false, mismatch: 'accepted.maxTimeoutSeconds is "999999", this resource requires "300"' });
});

test('an extra key we set must keep its value', () => {
  const verdict = matchAccepted({ ...ours, extra: { name: 'USDC', version: '2' } }, [ours]);
  assert.equal(verdict.ok, false);
});

test('with several schemes offered, a mismatch is explained against the offer of the payment\'s own scheme', () => {
  const channel: PaymentRequirements = { ...ours, scheme: 'batch-settlement', extra: { ...ours.extra, withdrawDelay: 86_400 } };
  for (const offered of [[ours, channel], [channel, ours]]) {
    const verdict = matchAccepted({ ...ours, amount: '1' }, offered);
    assert.deepEqual(verdict, { ok: false, mismatch: `accepted.amount is "1", this resource requires "${ours.amount}"` });
  }
  assert.deepEqual(matchAccepted({ ...ours, scheme: 'upto' }, [ours, channel]), { ok: false, mismatch: 'accepted.scheme is "upto", this resource requires "exact"' });
});
