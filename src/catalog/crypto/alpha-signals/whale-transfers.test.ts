import assert from 'node:assert/strict';
import { test } from 'node:test';
import { thresholdAtomic } from './whale-transfers.ts';

const usdc = { symbol: 'USDC', address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', decimals: 6 } as const;
const weth = { symbol: 'WETH', address: '0x4200000000000000000000000000000000000006', decimals: 18 } as const;
const at3000 = { answer: 300_000_000_000n, decimals: 8 } as Parameters<typeof thresholdAtomic>[2];

test('the USDC threshold is the USD amount in atomic units', () => {
  assert.equal(thresholdAtomic(usdc, 100_000, undefined), 100_000_000_000n);
});

test('the WETH threshold is the smallest amount worth the USD amount at the feed price, rounded up', () => {
  const minimum = thresholdAtomic(weth, 100_000, at3000)!;
  // 100,000 / 3,000 = 33.333... WETH
  assert.equal(minimum, 33_333_333_333_333_333_334n);
  assert.ok((minimum * 3_000n) >= 100_000n * 10n ** 18n);
  assert.ok(((minimum - 1n) * 3_000n) < 100_000n * 10n ** 18n);
});

test('WETH cannot be valued without a price', () => {
  assert.equal(thresholdAtomic(weth, 100_000, undefined), undefined);
});
