import assert from 'node:assert/strict';
import { test } from 'node:test';
import { untilAborted } from '../../../until-aborted.ts';
import { loadOnce } from './load-once.ts';

test('loads once for concurrent and later callers, and records how long it took', async () => {
  let loads = 0;
  const value = loadOnce(async () => {
    loads += 1;
    await new Promise((resolve) => setTimeout(resolve, 20));
    return { loads };
  });
  assert.equal(value.loadMs(), undefined);
  const [a, b] = await Promise.all([value.get(), value.get()]);
  assert.equal(a, b);
  assert.equal(await value.get(), a);
  assert.equal(loads, 1);
  assert.ok((value.loadMs() ?? 0) >= 15);
});

test('a failed load is retried by the next caller', async () => {
  let attempts = 0;
  const value = loadOnce(async () => {
    attempts += 1;
    if (attempts === 1) throw new Error('disk hiccup');
    return 'ok';
  });
  await assert.rejects(value.get(), /disk hiccup/);
  assert.equal(await value.get(), 'ok');
  assert.equal(attempts, 2);
});

test('one caller giving up does not cancel the shared load for the others', async () => {
  let finish: (value: string) => void = () => {};
  const shared = new Promise<string>((resolve) => (finish = resolve));
  const controller = new AbortController();
  const impatient = untilAborted(shared, controller.signal);
  const patient = untilAborted(shared, new AbortController().signal);
  controller.abort(new Error('gave up'));
  await assert.rejects(impatient, /gave up/);
  finish('data');
  assert.equal(await patient, 'data');
});
