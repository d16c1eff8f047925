import assert from 'node:assert/strict';
import { after, describe, test } from 'node:test';
import {
  WorkerCrashError, WorkerMemoryError, WorkerPool, WorkerPoolBusyError, WorkerTaskError, WorkerTimeoutError, type WorkerPoolOptions,
} from './worker-pool.ts';

const pools: WorkerPool[] = [];
function makePool(overrides: Partial<WorkerPoolOptions> = {}): WorkerPool {
  const pool = new WorkerPool({
    name: 'test',
    script: new URL('./worker-pool.fixture.mjs', import.meta.url),
    resourceLimits: { maxOldGenerationSizeMb: 32, maxYoungGenerationSizeMb: 8 },
    spareWorkers: 1,
    maxWorkers: 3,
    maxWaiting: 4,
    idleRetireMs: 5_000,
    ...overrides,
  });
  pools.push(pool);
  return pool;
}
after(() => Promise.all(pools.map((pool) => pool.close())));

const echo = (value: unknown) => ({ kind: 'echo', value });
const timed = async <T>(work: Promise<T>) => {
  const started = performance.now();
  const value = await work;
  return { value, ms: performance.now() - started };
};

describe('WorkerPool', () => {
  test('runs a task in a worker and answers with its value', async () => {
    const pool = makePool();
    const run = await pool.run<{ a: number[] }>(echo({ a: [1, 2, 3] }), { timeLimitMs: 5_000 });
    assert.deepEqual(run.value, { a: [1, 2, 3] });
    assert.ok(run.elapsedMs >= 0);
  });

  test('a task that never yields is terminated at its time limit, and the pool goes on working', async () => {
    const pool = makePool();
    await pool.run(echo(1), { timeLimitMs: 5_000 }); // the first worker has started
    const { value: error, ms } = await timed(pool.run({ kind: 'spin' }, { timeLimitMs: 300 }).catch((e: unknown) => e));
    assert.ok(error instanceof WorkerTimeoutError, String(error));
    assert.equal(error.timeLimitMs, 300);
    assert.ok(ms >= 290 && ms < 1_500, `refused after ${ms} ms`);
    assert.equal((await pool.run(echo('still here'), { timeLimitMs: 5_000 })).value, 'still here');
  });

  test('a stuck task does not hold up another one: the other gets its own worker', async () => {
    const pool = makePool();
    await pool.run(echo(1), { timeLimitMs: 5_000 });
    const stuck = pool.run({ kind: 'spin' }, { timeLimitMs: 1_500 }).catch((e: unknown) => e);
    const started = performance.now();
    const quick = await pool.run(echo('quick'), { timeLimitMs: 5_000 });
    const quickMs = performance.now() - started;
    assert.equal(quick.value, 'quick');
    const stuckError = await stuck;
    const stuckMs = performance.now() - started;
    assert.ok(stuckError instanceof WorkerTimeoutError);
    assert.ok(quickMs < stuckMs - 500, `the quick task answered after ${quickMs} ms, the stuck one was stopped after ${stuckMs} ms`);
  });

  test('a task over the memory limit stops with WorkerMemoryError, not a crash of the process', async () => {
    const pool = makePool();
    const error = await pool.run({ kind: 'allocate' }, { timeLimitMs: 20_000 }).catch((e: unknown) => e);
    assert.ok(error instanceof WorkerMemoryError, String(error));
    assert.equal(error.limitMb, 32);
    assert.equal((await pool.run(echo('after'), { timeLimitMs: 5_000 })).value, 'after');
  });

  test('an error thrown by the task comes back as WorkerTaskError with its name and message', async () => {
    const pool = makePool();
    const error = await pool.run({ kind: 'throw' }, { timeLimitMs: 5_000 }).catch((e: unknown) => e);
    assert.ok(error instanceof WorkerTaskError);
    assert.equal(error.remoteName, 'TypeError');
    assert.equal(error.message, 'thrown on purpose');
    const uncloneable = await pool.run({ kind: 'uncloneable' }, { timeLimitMs: 5_000 }).catch((e: unknown) => e);
    assert.ok(uncloneable instanceof WorkerTaskError);
    assert.equal(uncloneable.remoteName, 'DataCloneError');
  });

  test('a worker that exits mid-task fails that task with WorkerCrashError and is replaced', async () => {
    const pool = makePool();
    const error = await pool.run({ kind: 'exit' }, { timeLimitMs: 5_000 }).catch((e: unknown) => e);
    assert.ok(error instanceof WorkerCrashError, String(error));
    assert.equal((await pool.run(echo('replaced'), { timeLimitMs: 5_000 })).value, 'replaced');
  });

  test('aborting terminates the running task with the signal\'s reason', async () => {
    const pool = makePool();
    const controller = new AbortController();
    const running = pool.run({ kind: 'spin' }, { timeLimitMs: 10_000, signal: controller.signal }).catch((e: unknown) => e);
    setTimeout(() => controller.abort(new Error('caller went away')), 200);
    const { value: error, ms } = await timed(running);
    assert.ok(error instanceof Error);
    assert.equal(error.message, 'caller went away');
    assert.ok(ms < 5_000);
    assert.equal((await pool.run(echo('next'), { timeLimitMs: 5_000 })).value, 'next');
  });

  test('an already aborted signal runs nothing', async () => {
    const pool = makePool();
    const controller = new AbortController();
    controller.abort(new Error('too late'));
    await assert.rejects(pool.run(echo(1), { timeLimitMs: 5_000, signal: controller.signal }), /too late/);
  });

  test('when every worker is busy calls wait their turn, and past maxWaiting they are refused with WorkerPoolBusyError', async () => {
    const pool = makePool({ maxWorkers: 1, maxWaiting: 1, spareWorkers: 0 });
    const first = pool.run({ kind: 'sleep', ms: 400 }, { timeLimitMs: 5_000 });
    for (let i = 0; i < 200 && pool.stats().busy === 0; i += 1) await new Promise((resolve) => setTimeout(resolve, 10));
    assert.equal(pool.stats().busy, 1);
    const second = pool.run(echo('second'), { timeLimitMs: 5_000 });
    await assert.rejects(pool.run(echo('third'), { timeLimitMs: 5_000 }), WorkerPoolBusyError);
    assert.equal((await first).value, 'slept');
    assert.equal((await second).value, 'second');
    assert.equal(pool.stats().waiting, 0);
  });

  test('keeps the spare workers started: after warm() a call finds an idle worker', async () => {
    const pool = makePool({ spareWorkers: 2 });
    pool.warm();
    for (let i = 0; i < 100 && pool.stats().idle < 2; i += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    assert.equal(pool.stats().idle, 2);
    await pool.run(echo(1), { timeLimitMs: 5_000 });
    const stats = pool.stats();
    assert.equal(stats.busy, 0);
    assert.ok(stats.idle + stats.starting >= 2, JSON.stringify(stats));
  });

  test('a script that cannot start refuses the waiting calls instead of respawning for ever', async () => {
    const pool = makePool({ script: new URL('./no-such-worker.mjs', import.meta.url) });
    const error = await pool.run(echo(1), { timeLimitMs: 5_000 }).catch((e: unknown) => e);
    assert.ok(error instanceof WorkerCrashError, String(error));
  });
});
