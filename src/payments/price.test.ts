import assert from 'node:assert/strict';
import { test } from 'node:test';
import { parseUnits } from 'viem';
import { atomicToUsdc, usdcToAtomic } from './price.ts';

test('USDC decimal prices convert to atomic units exactly', () => {
  assert.equal(usdcToAtomic('0.001'), 1000n);
  assert.equal(usdcToAtomic('0.020'), 20000n);
  assert.equal(usdcToAtomic('1'), 1_000_000n);
  assert.equal(usdcToAtomic('0.000001'), 1n);
  for (const price of ['0.001', '0.002', '0.003', '0.005', '0.008', '0.015', '0.020', '12.345678']) {
    assert.equal(usdcToAtomic(price), parseUnits(price, 6), price);
  }
});

test('malformed or over-precise prices are refused', () => {
  for (const bad of ['', '-1', '1e3', '0.0000001', 'abc', '.5', '01']) {
    assert.throws(() => usdcToAtomic(bad), bad);
  }
});

test('atomic amounts print as canonical decimals', () => {
  assert.equal(atomicToUsdc(5000n), '0.005');
  assert.equal(atomicToUsdc(1_000_000n), '1');
  assert.equal(atomicToUsdc(0n), '0');
  assert.equal(atomicToUsdc(1_234_567n), '1.234567');
});
