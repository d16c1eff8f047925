import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChainReadBudget } from './chain-read-budget.ts';

const budget = (clock: () => number) => new ChainReadBudget({ perClient: { burst: 3, perSecond: 1 }, total: { burst: 5, perSecond: 2 }, clock });

test('a client gets its burst, then reads at its rate; another client is not held back by it', () => {
  let now = 0;
  const b = budget(() => now);
  assert.deepEqual([1, 2, 3, 4].map(() => b.take('a')), [true, true, true, false]);
  assert.equal(b.take('b'), true);
  now = 1_000;
  assert.equal(b.take('a'), true);
  assert.equal(b.take('a'), false);
});

test('the whole instance has a budget too: many clients together cannot pass it', () => {
  let now = 0;
  const b = budget(() => now);
  const granted = Array.from({ length: 20 }, (_, i) => b.take(`client-${i}`)).filter(Boolean).length;
  assert.equal(granted, 5);
  now = 1_000;
  assert.equal(Array.from({ length: 20 }, (_, i) => b.take(`other-${i}`)).filter(Boolean).length, 2);
});

test('a read that showed the caller can pay is given back: funded payers never use up the budget', () => {
  const b = budget(() => 0);
  for (let i = 0; i < 50; i++) {
    assert.equal(b.take('platform'), true);
    b.refund('platform');
  }
  assert.deepEqual([1, 2, 3, 4].map(() => b.take('platform')), [true, true, true, false]);
});
