import assert from 'node:assert/strict';
import test from 'node:test';
import { openPgliteClient } from './pglite-client.ts';
import { EmbeddedVacuum } from './embedded-vacuum.ts';

const noLog = { warn: () => undefined };

test('rows rewritten over and over: the table keeps growing unvacuumed, and stays small when vacuumed between rounds', async (t) => {
  const db = await openPgliteClient();
  t.after(() => db.close());
  await db.exec(`CREATE TABLE hot (id int PRIMARY KEY, charged numeric, signature text);
                 CREATE TABLE cold (id int PRIMARY KEY, charged numeric, signature text);
                 -- as in the channels table, every update changes an indexed column: no in-page (HOT) update
                 CREATE INDEX hot_charged ON hot (charged);
                 CREATE INDEX cold_charged ON cold (charged);
                 INSERT INTO hot SELECT g, 0, repeat('ab', 65) FROM generate_series(1, 50) g;
                 INSERT INTO cold SELECT g, 0, repeat('ab', 65) FROM generate_series(1, 50) g;`);
  const vacuum = new EmbeddedVacuum(db, noLog, 60_000, ['hot']);
  const size = async (table: string) => Number((await db.query<{ bytes: string }>(`SELECT pg_relation_size($1) AS bytes`, [table])).rows[0]!.bytes);
  const sizes: number[][] = [];
  for (let round = 0; round < 4; round++) {
    for (let update = 0; update < 40; update++) {
      await db.query(`UPDATE hot SET charged = charged + 1`);
      await db.query(`UPDATE cold SET charged = charged + 1`);
    }
    await vacuum.vacuum();
    sizes.push([await size('hot'), await size('cold')]);
  }
  const [first, last] = [sizes[0]!, sizes[3]!];
  assert.ok(last[1]! > 2 * first[1]!, `the unvacuumed table grew: ${sizes.map((s) => s[1]).join(' -> ')}`);
  assert.ok(last[0]! <= first[0]! * 1.25, `the vacuumed table did not: ${sizes.map((s) => s[0]).join(' -> ')}`);
  assert.deepEqual((await db.query(`SELECT count(*)::int AS n, min(charged)::int AS c FROM hot`)).rows, [{ n: 50, c: 160 }]);
});

test('a failing pass is logged and the next one runs; stop waits for a pass under way', async (t) => {
  const db = await openPgliteClient();
  t.after(() => db.close());
  const warned: unknown[] = [];
  const vacuum = new EmbeddedVacuum(db, { warn: (fields: unknown) => void warned.push(fields) }, 60_000, ['missing_table']);
  await vacuum.vacuum();
  assert.equal(warned.length, 1);
  const passes = [vacuum.vacuum(), vacuum.vacuum()];
  assert.equal(passes[0], passes[1], 'one pass at a time');
  vacuum.start();
  await vacuum.stop();
  await Promise.all(passes);
  assert.equal(warned.length, 2);
});
