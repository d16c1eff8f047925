import assert from 'node:assert/strict';
import { test } from 'node:test';
import { GroupCommit } from './group-commit.ts';

test('items submitted in one turn are flushed together; items arriving during a flush go together in the next one, in order', async () => {
  const flushes: number[][] = [];
  let release: () => void = () => undefined;
  const group = new GroupCommit<number, string>(async (items) => {
    flushes.push(items);
    if (flushes.length === 1) await new Promise<void>((resolve) => { release = resolve; });
    return items.map((n) => `done ${n}`);
  });
  const first = [group.submit(1), group.submit(2)];
  assert.deepEqual(flushes, [], 'nothing is flushed before the turn ends');
  await new Promise((resolve) => setImmediate(resolve));
  const later = [group.submit(3), group.submit(4), group.submit(5)];
  assert.deepEqual(flushes, [[1, 2]], 'the first flush runs');
  release();
  assert.deepEqual(await Promise.all(first), ['done 1', 'done 2']);
  assert.deepEqual(await Promise.all(later), ['done 3', 'done 4', 'done 5']);
  assert.deepEqual(flushes, [[1, 2], [3, 4, 5]]);
});

test('a flush that throws fails its own items only; the next group still goes', async () => {
  let calls = 0;
  let release: () => void = () => undefined;
  const group = new GroupCommit<number, number>(async (items) => {
    calls++;
    if (calls === 1) {
      await new Promise<void>((resolve) => { release = resolve; });
      throw new Error('store down');
    }
    return items.map((n) => n * 10);
  });
  const failed = group.submit(1);
  await new Promise((resolve) => setImmediate(resolve));
  const next = group.submit(2);
  release();
  await assert.rejects(failed, /store down/);
  assert.equal(await next, 20);
});

test('a group is at most maxGroup items', async () => {
  const sizes: number[] = [];
  let release: () => void = () => undefined;
  const group = new GroupCommit<number, number>(async (items) => {
    sizes.push(items.length);
    if (sizes.length === 1) await new Promise<void>((resolve) => { release = resolve; });
    return items;
  }, 3);
  const first = group.submit(0);
  await new Promise((resolve) => setImmediate(resolve));
  const all = [first, ...Array.from({ length: 7 }, (_, i) => group.submit(i + 1))];
  release();
  await Promise.all(all);
  assert.deepEqual(sizes, [1, 3, 3, 1]);
});
