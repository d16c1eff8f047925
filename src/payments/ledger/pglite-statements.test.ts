import assert from 'node:assert/strict';
import test, { after, before } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { PgliteStatements } from './pglite-statements.ts';

// One in-memory database for the file (starting one takes seconds); each test empties the table.
let pg: PGlite;
before(async () => {
  pg = new PGlite();
  await pg.waitReady;
  await pg.exec(`CREATE TABLE t (id serial PRIMARY KEY, name text UNIQUE, amount numeric(78, 0), big int8, at timestamptz, flag boolean, tags text[], doc jsonb)`);
});
after(() => pg.close());

async function database(maxDescribed?: number): Promise<{ pg: PGlite; statements: PgliteStatements }> {
  await pg.exec('TRUNCATE t');
  return { pg, statements: new PgliteStatements(pg, maxDescribed) };
}

const INSERT = `INSERT INTO t (name, amount, big, at, flag, tags, doc)
  SELECT name, amount, big, at, flag, tags, doc FROM (VALUES ($1::text, $2::numeric, $3::int8, $4::timestamptz, $5::boolean, $6::text[], $7::jsonb))
    AS v(name, amount, big, at, flag, tags, doc)
  RETURNING *`;
const unnestInsert = `INSERT INTO t (name, amount) SELECT * FROM unnest($1::text[], $2::numeric[]) RETURNING id, name, amount`;

test('rows and values come back exactly as PGlite\'s own query gives them, for every type the ledger uses', async () => {
  const { pg, statements } = await database();
  const values = (name: string) => [name, '123456789012345678901234567890', 9007199254740993n, new Date('2026-11-27T05:00:00.123Z'), true,
    ['a', 'b "quoted"', null, 'back\\slash', '{braces}'], { nested: [1, 'two'] }];
  const ours = (await statements.query(INSERT, values('ours'))).rows;
  const theirs = (await pg.query(INSERT, values('theirs'))).rows;
  assert.equal(ours.length, 1);
  assert.deepEqual({ ...ours[0] as object, id: 0, name: '' }, { ...theirs[0] as object, id: 0, name: '' });
  const nulls = [null, null, null, null, null, null, null];
  assert.deepEqual({ ...(await statements.query(INSERT, nulls)).rows[0] as object, id: 0 }, { ...(await pg.query(INSERT, nulls)).rows[0] as object, id: 0 });
  // Arrays of parameters (the ledger's group statements), and a statement run again with new values.
  for (const round of [1, 2]) {
    const ourRows = (await statements.query(unnestInsert, [[`u${round}a`, `u${round}b`], ['1', '2']])).rows;
    const theirRows = (await pg.query(unnestInsert, [[`p${round}a`, `p${round}b`], ['1', '2']])).rows;
    assert.deepEqual(ourRows.map((r) => ({ ...r as object, id: 0, name: '' })), theirRows.map((r) => ({ ...r as object, id: 0, name: '' })));
  }
  assert.deepEqual((await statements.query('SELECT count(*)::int AS n FROM t WHERE name LIKE $1', ['u%'])).rows, [{ n: 4 }]);
  assert.deepEqual((await statements.query('UPDATE t SET amount = 0 WHERE name = $1 RETURNING id', ['nobody'])).rows, []);
});

test('a database error keeps its code and leaves the session usable, inside and outside a transaction', async () => {
  const { statements } = await database();
  const insert = 'INSERT INTO t (name) VALUES ($1) RETURNING id';
  await statements.query(insert, ['taken']);
  await assert.rejects(statements.query(insert, ['taken']), (error: { code?: string }) => error.code === '23505');
  await assert.rejects(statements.query('SELEC nonsense'), (error: { code?: string }) => error.code === '42601');
  assert.equal((await statements.query(insert, ['next'])).rows.length, 1);

  // Thrown inside: rolled back, and the error is the caller's.
  await assert.rejects(statements.transaction(async (tx) => {
    await tx.query(insert, ['rolled back']);
    await tx.query(insert, ['taken']);
  }), (error: { code?: string }) => error.code === '23505');
  // Caught inside: the transaction is aborted, so COMMIT rolls it back and says so.
  await assert.rejects(statements.transaction(async (tx) => {
    await tx.query(insert, ['also rolled back']);
    await tx.query(insert, ['taken']).catch(() => undefined);
  }), /rolled back|aborted/i);
  const names = (await statements.query<{ name: string }>('SELECT name FROM t ORDER BY id')).rows.map((r) => r.name);
  assert.deepEqual(names, ['taken', 'next']);
  // A statement first described in a transaction that rolled back runs afterwards.
  const fresh = 'SELECT $1::text || \'!\' AS shout';
  await assert.rejects(statements.transaction(async (tx) => {
    await tx.query(fresh, ['a']);
    throw new Error('changed my mind');
  }), /changed my mind/);
  assert.deepEqual((await statements.query(fresh, ['b'])).rows, [{ shout: 'b!' }]);
});

test('a transaction commits its statements and its exec, and a query from outside waits for it', async () => {
  const { pg, statements } = await database();
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const order: string[] = [];
  const transaction = statements.transaction(async (tx) => {
    await tx.exec(`INSERT INTO t (name) VALUES ('one'); INSERT INTO t (name) VALUES ('two')`);
    await held;
    await tx.query('UPDATE t SET amount = $1', ['5']);
    order.push('transaction');
    return 'done';
  });
  const outside = statements.query<{ n: number }>('SELECT count(*)::int AS n FROM t WHERE amount = 5').then((result) => {
    order.push('outside');
    return result.rows[0]?.n;
  });
  await new Promise((r) => setTimeout(r, 20));
  release();
  assert.equal(await transaction, 'done');
  assert.equal(await outside, 2, 'the outside query saw the committed transaction whole');
  assert.deepEqual(order, ['transaction', 'outside']);
  assert.equal((await pg.query('SELECT 1 AS one')).rows.length, 1, 'PGlite\'s own locks are free again');
});

test('past the SQL texts whose parameter types are kept, statements still run, described each time', async () => {
  const { statements } = await database(2);
  for (let i = 0; i < 5; i++) {
    assert.deepEqual((await statements.query(`SELECT $1::int + ${i} AS n`, [10])).rows, [{ n: 10 + i }]);
  }
  await assert.rejects(statements.query('SELECT $1::int AS n, nope', [1]), (error: { code?: string }) => error.code === '42703');
  assert.deepEqual((await statements.query('SELECT $1::int + 100 AS n', [1])).rows, [{ n: 101 }]);
  assert.deepEqual(await statements.transaction((tx) => tx.query('SELECT $1::text AS s', ['in a transaction']).then((r) => r.rows)), [{ s: 'in a transaction' }]);
});

test('a statement marked prepared is parsed once per session and gives the same rows; after a rollback and an error it still runs', async () => {
  const { pg, statements } = await database();
  const prepared = { prepared: true } as const;
  const values = (name: string) => [name, '123456789012345678901234567890', 9007199254740993n, new Date('2026-11-27T05:00:00.123Z'), true, ['a', null], { n: 1 }];
  const ours = (await statements.query(INSERT, values('ours'), prepared)).rows;
  const theirs = (await pg.query(INSERT, values('theirs'))).rows;
  assert.deepEqual({ ...ours[0] as object, id: 0, name: '' }, { ...theirs[0] as object, id: 0, name: '' });
  const named = async () => (await pg.query<{ statement: string }>('SELECT statement FROM pg_prepared_statements')).rows.map((r) => r.statement);
  assert.deepEqual(await named(), [INSERT], 'one named statement, for the text marked prepared');

  await assert.rejects(statements.transaction(async (tx) => {
    await tx.query(INSERT, values('rolled back'), prepared);
    throw new Error('changed my mind');
  }), /changed my mind/);
  await assert.rejects(statements.query(INSERT, values('ours'), prepared), (error: { code?: string }) => error.code === '23505');
  assert.equal((await statements.query(INSERT, values('again'), prepared)).rows.length, 1);
  assert.deepEqual(await named(), [INSERT], 'still the one statement, not parsed again');
  const names = (await statements.query<{ name: string }>('SELECT name FROM t ORDER BY id')).rows.map((r) => r.name);
  assert.deepEqual(names, ['ours', 'theirs', 'again']);
});

test('past the kept texts, a statement marked prepared runs as the unnamed statement', async () => {
  const { pg, statements } = await database(1);
  await statements.query('SELECT $1::int AS n', [1]);
  assert.deepEqual((await statements.query('SELECT $1::int + 1 AS n', [1], { prepared: true })).rows, [{ n: 2 }]);
  assert.deepEqual((await pg.query('SELECT count(*)::int AS n FROM pg_prepared_statements WHERE statement LIKE $1', ['%+ 1 AS n'])).rows, [{ n: 0 }]);
});
