import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RETRY_WAITERS_PER_IDENTIFIER, RETRY_WAITERS_TOTAL, RetryWaiters } from './retry-waiters.ts';

const DAY_MS = 86_400_000;

test('slots are capped per identifier and in total; a slot given back can be taken again', () => {
  const waiters = new RetryWaiters({ perIdentifier: 2, total: 3 });
  const a1 = waiters.join('a');
  assert.ok(a1 && waiters.join('a'));
  assert.equal(waiters.join('a'), undefined, 'a third retry of one identifier');
  assert.ok(waiters.join('b'));
  assert.equal(waiters.join('c'), undefined, 'a fourth retry in all');
  a1.leave();
  a1.leave();
  assert.equal(waiters.waiting, 2, 'leaving twice gives back one slot');
  assert.ok(waiters.join('c'));
});

test('the defaults', () => {
  const waiters = new RetryWaiters();
  const slots = Array.from({ length: RETRY_WAITERS_PER_IDENTIFIER + 1 }, () => waiters.join('one'));
  assert.equal(slots.filter(Boolean).length, RETRY_WAITERS_PER_IDENTIFIER);
  for (let i = 0; waiters.waiting < RETRY_WAITERS_TOTAL; i++) assert.ok(waiters.join(`id-${i}`));
  assert.equal(waiters.join('one-more'), undefined);
});

test('the end of an attempt on this instance wakes every waiter of its identifier at once, and only those', async () => {
  const waiters = new RetryWaiters();
  const ended = waiters.attemptStarted('a');
  assert.equal(waiters.runningHere('a'), true);
  const mine = [waiters.join('a'), waiters.join('a')].map((slot) => slot!.wait(DAY_MS));
  const other = waiters.join('b')!;
  let otherWoken: boolean | undefined;
  void other.wait(50).then((woken) => { otherWoken = woken; });
  ended();
  assert.deepEqual(await Promise.all(mine), [true, true]);
  assert.equal(waiters.runningHere('a'), false);
  await new Promise((resolve) => setTimeout(resolve, 60));
  assert.equal(otherWoken, false, 'a waiter of another identifier sleeps its time out');
});
