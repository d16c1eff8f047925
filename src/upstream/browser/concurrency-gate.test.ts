import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConcurrencyGate } from './concurrency-gate.ts';

test('at most `limit` holders; the next waiter gets the slot in arrival order', async () => {
  const gate = new ConcurrencyGate(2);
  const first = await gate.acquire();
  const second = await gate.acquire();
  const order: string[] = [];
  const third = gate.acquire().then((release) => (order.push('third'), release));
  const fourth = gate.acquire().then((release) => (order.push('fourth'), release));
  assert.deepEqual({ inUse: gate.inUse, queued: gate.queued }, { inUse: 2, queued: 2 });
  first();
  first(); // a second call of the same release frees nothing more
  const releaseThird = await third;
  assert.deepEqual(order, ['third']);
  assert.deepEqual({ inUse: gate.inUse, queued: gate.queued }, { inUse: 2, queued: 1 });
  second();
  releaseThird();
  (await fourth)();
  assert.deepEqual(order, ['third', 'fourth']);
  assert.deepEqual({ inUse: gate.inUse, queued: gate.queued }, { inUse: 0, queued: 0 });
});

test('a waiter whose signal aborts leaves the queue with the signal\'s reason', async () => {
  const gate = new ConcurrencyGate(1);
  const held = await gate.acquire();
  const controller = new AbortController();
  const waiting = gate.acquire(controller.signal);
  controller.abort(new Error('gave up'));
  await assert.rejects(waiting, /gave up/);
  assert.equal(gate.queued, 0);
  held();
  assert.equal(gate.inUse, 0);
  await assert.rejects(gate.acquire(controller.signal), /gave up/);
});

test('the limit must be a positive integer', () => {
  assert.throws(() => new ConcurrencyGate(0), RangeError);
});
