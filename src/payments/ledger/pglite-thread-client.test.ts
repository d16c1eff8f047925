import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { openPgliteClient } from './pglite-client.ts';

test('on its own thread the store answers queries, keeps PostgreSQL\'s error fields, and commits or rolls back transactions', async (t) => {
  const db = await openPgliteClient(undefined, { ownThread: true });
  t.after(() => db.close());
  await db.exec('CREATE TABLE kept (id int PRIMARY KEY, value text, at timestamptz)');
  const at = new Date('2026-11-27T02:00:00.000Z');
  await db.query('INSERT INTO kept VALUES ($1, $2, $3)', [1, 'ünïcödé', at]);
  assert.deepEqual((await db.query('SELECT * FROM kept')).rows, [{ id: 1, value: 'ünïcödé', at }]);

  await assert.rejects(db.query('INSERT INTO kept VALUES (1, $1)', ['again']), (error: Error & { code?: string; constraint?: string }) => {
    assert.equal(error.code, '23505');
    assert.equal(error.constraint, 'kept_pkey');
    assert.match(error.message, /duplicate key/);
    return true;
  });

  const inside = await db.transaction(async (tx) => {
    await tx.query('INSERT INTO kept (id, value) VALUES (2, $1)', ['committed']);
    return (await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM kept')).rows[0]?.n;
  });
  assert.equal(inside, 2);
  await assert.rejects(
    db.transaction(async (tx) => {
      await tx.query('INSERT INTO kept (id, value) VALUES (3, $1)', ['rolled back']);
      throw new Error('the work failed');
    }),
    /the work failed/,
  );
  await assert.rejects(db.transaction((tx) => tx.query('INSERT INTO kept (id) VALUES (1)')), { code: '23505' });
  assert.deepEqual((await db.query('SELECT id FROM kept ORDER BY id')).rows, [{ id: 1 }, { id: 2 }]);
});

test('a statement outside a transaction waits for it, as on one PGlite instance', async (t) => {
  const db = await openPgliteClient(undefined, { ownThread: true });
  t.after(() => db.close());
  await db.exec('CREATE TABLE counter (n int)');
  await db.query('INSERT INTO counter VALUES (0)');
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  const order: string[] = [];
  const first = db.transaction(async (tx) => {
    await tx.query('UPDATE counter SET n = n + 1');
    await held;
    order.push('transaction');
  });
  const outside = db.query<{ n: number }>('SELECT n FROM counter').then((r) => {
    order.push('outside');
    return r.rows[0]?.n;
  });
  await new Promise((resolve) => setTimeout(resolve, 50));
  assert.deepEqual(order, [], 'the read waits while the transaction is open');
  release();
  await first;
  assert.equal(await outside, 1, 'and then sees what it committed');
  assert.deepEqual(order, ['transaction', 'outside']);
});

test('transactions in flight together each see only their own statements, and all commit', async (t) => {
  const db = await openPgliteClient(undefined, { ownThread: true });
  t.after(() => db.close());
  await db.exec('CREATE TABLE rows (k int PRIMARY KEY, v int)');
  await Promise.all(Array.from({ length: 40 }, (_, k) => db.transaction(async (tx) => {
    await tx.query('INSERT INTO rows VALUES ($1, 0)', [k]);
    await tx.query('UPDATE rows SET v = v + $2 WHERE k = $1', [k, k]);
  })));
  assert.deepEqual((await db.query('SELECT count(*)::int AS n, sum(v)::int AS s FROM rows')).rows, [{ n: 40, s: (39 * 40) / 2 }]);
});

test('what the thread wrote is on disk once it is closed, for the next client of the directory', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'toolgate-pglite-thread-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const first = await openPgliteClient(join(dir, 'ledger'), { ownThread: true });
  await first.exec('CREATE TABLE kept (value text)');
  await first.transaction((tx) => tx.query('INSERT INTO kept VALUES ($1)', ['written on the thread']));
  await first.close();
  await assert.rejects(first.query('SELECT 1'), /closed/);
  const second = await openPgliteClient(join(dir, 'ledger'));
  t.after(() => second.close());
  assert.deepEqual((await second.query('SELECT value FROM kept')).rows, [{ value: 'written on the thread' }]);
});
