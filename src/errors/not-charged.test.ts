import assert from 'node:assert/strict';
import test from 'node:test';
import { withoutChargeNote } from './not-charged.ts';

test('takes off the closing note that nothing was charged, and nothing else', () => {
  assert.equal(withoutChargeNote('example.com could not be reached (dns failed). You were not charged.'), 'example.com could not be reached (dns failed).');
  assert.equal(withoutChargeNote('word: expected a string. Nothing was charged.'), 'word: expected a string.');
  assert.equal(withoutChargeNote('kaboom'), 'kaboom');
  assert.equal(withoutChargeNote('You were not charged. Then it failed'), 'You were not charged. Then it failed');
});
