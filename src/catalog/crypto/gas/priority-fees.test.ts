import assert from 'node:assert/strict';
import { test } from 'node:test';
import { priorityFeesOf } from './priority-fees.ts';

test('each speed is the median over the blocks of that percentile, empty blocks left out', () => {
  const history = {
    reward: [
      [1n, 5n, 9n],
      [2n, 6n, 10n],
      [0n, 0n, 0n],
      [3n, 7n, 30n],
    ],
    gasUsedRatio: [0.5, 0.4, 0, 0.9],
    baseFeePerGas: [1n, 1n, 1n, 1n, 1n],
  };
  assert.deepEqual(priorityFeesOf(history), { fees: { slow: 2n, normal: 6n, fast: 10n }, blocksUsed: 3 });
});

test('an even number of blocks takes the mean of the two middle values; no blocks at all gives zeros', () => {
  const even = priorityFeesOf({ reward: [[2n, 4n, 8n], [4n, 8n, 16n]], gasUsedRatio: [0.1, 0.1], baseFeePerGas: [] });
  assert.deepEqual(even.fees, { slow: 3n, normal: 6n, fast: 12n });
  assert.deepEqual(priorityFeesOf({ gasUsedRatio: [0], baseFeePerGas: [1n] }), { fees: { slow: 0n, normal: 0n, fast: 0n }, blocksUsed: 0 });
});
