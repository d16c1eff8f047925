import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatUsdc, parseUsdc } from './usdc-amount.ts';

test('USDC decimals to atomic units and back', () => {
  assert.equal(parseUsdc('0.005'), 5000n);
  assert.equal(parseUsdc('1'), 1_000_000n);
  assert.equal(parseUsdc(' 12.345678 '), 12_345_678n);
  assert.equal(parseUsdc('0'), 0n);
  assert.equal(formatUsdc(5000n), '0.005');
  assert.equal(formatUsdc(1_000_000n), '1');
  assert.equal(formatUsdc(12_345_678n), '12.345678');
  assert.equal(formatUsdc(0n), '0');
});

test('anything but a plain non-negative decimal with at most 6 places is refused, naming the setting', () => {
  assert.throws(() => parseUsdc('0.0000001', '--max-price'), /--max-price has more than 6 decimal places/);
  assert.throws(() => parseUsdc('-1', '--daily-budget'), /--daily-budget must be a USDC amount such as 0\.01 \(got "-1"\)/);
  assert.throws(() => parseUsdc('$1'), /must be a USDC amount/);
  assert.throws(() => parseUsdc('1e3'), /must be a USDC amount/);
  assert.throws(() => parseUsdc(''), /must be a USDC amount/);
});
