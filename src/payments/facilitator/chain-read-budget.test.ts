import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ChainReadBudget } from './chain-read-budget.ts';

const budget = (clock: () => number) => new ChainReadBudget({ perClient: { burst: 3, perSecond: 1 }, total: { burst: 5, perSecond: 2 }, clock });

/** A read that found nothing: allowed, then charged. */
const emptyRead = (b: ChainReadBudget, client: string) => {
  if (!b.allows(client)) return false;
  b.charge(client);
  return true;
};

test('a client gets its burst of reads that find nothing, then reads at its rate; another client is not held back by it', () => {
  let now = 0;
  const b = budget(() => now);
  assert.deepEqual([1, 2, 3, 4].map(() => emptyRead(b, 'a')), [true, true, true, false]);
  assert.equal(emptyRead(b, 'b'), true);
  now = 1_000;
  assert.equal(emptyRead(b, 'a'), true);
  assert.equal(emptyRead(b, 'a'), false);
});

test('the whole instance has a budget too: many clients together cannot pass it', () => {
  let now = 0;
  const b = budget(() => now);
  assert.equal(Array.from({ length: 20 }, (_, i) => emptyRead(b, `client-${i}`)).filter(Boolean).length, 5);
  now = 1_000;
  assert.equal(Array.from({ length: 20 }, (_, i) => emptyRead(b, `other-${i}`)).filter(Boolean).length, 2);
});

test('reads that showed the caller can pay are never charged: fifty at once from one address all go out', () => {
  const b = budget(() => 0);
  for (let i = 0; i < 50; i++) assert.equal(b.allows('platform'), true);
  assert.deepEqual([1, 2, 3, 4].map(() => emptyRead(b, 'platform')), [true, true, true, false]);
});

test('charges landing after reads sent together overdraw the bucket, and the overdraft is repaid at the refill rate', () => {
  let now = 0;
  const b = budget(() => now);
  const together = Array.from({ length: 6 }, () => b.allows('burst'));
  assert.ok(together.every(Boolean));
  for (let i = 0; i < 6; i++) b.charge('burst');
  now = 3_000;
  assert.equal(b.allows('burst'), false, '3 - 6 + 3 = 0 tokens after 3 s');
  now = 4_000;
  assert.equal(b.allows('burst'), true);
});
