import assert from 'node:assert/strict';
import { test } from 'node:test';
import { openPgliteClient } from './pglite-client.ts';
import { migrate } from './schema.ts';
import type { SqlClient } from './sql-client.ts';
import { vacuumPaymentsIfDue } from './embedded-vacuum.ts';
import { until } from '../../../test/support/until.ts';

const ROWS = 2_000;

async function deadVersions(db: SqlClient): Promise<number> {
  const { rows } = await db.query<{ dead: string | number }>(`SELECT n_dead_tup AS dead FROM pg_stat_user_tables WHERE relname = 'payments'`);
  return Number(rows[0]?.dead ?? 0);
}

const tableBytes = async (db: SqlClient) => Number((await db.query<{ size: string | number }>(`SELECT pg_total_relation_size('payments') AS size`)).rows[0]!.size);

/** Each row's life as a voucher's: received, then claimed, then settled. */
async function lifeOfRows(db: SqlClient, round: number): Promise<void> {
  await db.query(
    `INSERT INTO payments (payer, nonce, tool, amount, network, resource, state)
     SELECT '0xpayer', 'r${round}:' || g, 'tool', 1000, 'eip155:8453', 'r', 'received' FROM generate_series(1, ${ROWS}) g`,
  );
  await db.query(`UPDATE payments SET state = 'claimed', updated_at = now() WHERE state = 'received'`);
  await db.query(`UPDATE payments SET state = 'settled', settled_at = now(), updated_at = now() WHERE state = 'claimed'`);
}

async function waitForDead(db: SqlClient, atLeast: number, what: string): Promise<void> {
  await until(async () => (await deadVersions(db)) >= atLeast, what, 10_000);
}

test('on PGlite, payments is vacuumed once its dead versions reach the threshold; then it grows by its live rows, where left alone it grows by every version of them', async () => {
  const [vacuumed, left] = await Promise.all([openPgliteClient(), openPgliteClient()]);
  try {
    for (const db of [vacuumed, left]) await migrate(db);
    for (let round = 1; round <= 5; round++) {
      for (const db of [vacuumed, left]) await lifeOfRows(db, round);
      await waitForDead(vacuumed, 2 * ROWS, `round ${round}'s dead versions counted`);
      if (round === 1) {
        assert.equal(await vacuumPaymentsIfDue(vacuumed, { deadVersions: 5 * ROWS, deadShareOfLive: 0 }), undefined, 'fewer than the count asked: nothing done');
        assert.ok((await deadVersions(vacuumed)) >= 2 * ROWS);
      }
      if (round === 2) {
        // 2 dead versions per live row of this round, 4,000 against 4,000 live: under a share of 1.5, nothing.
        assert.equal(await vacuumPaymentsIfDue(vacuumed, { deadVersions: 0, deadShareOfLive: 1.5 }), undefined, 'fewer than the share of live rows asked: nothing done');
      }
      assert.equal(await vacuumPaymentsIfDue(vacuumed, { deadVersions: 2 * ROWS, deadShareOfLive: 0.2 }), 2 * ROWS, `round ${round}`);
      assert.equal(await deadVersions(vacuumed), 0);
    }
    const [small, large] = [await tableBytes(vacuumed), await tableBytes(left)];
    assert.ok(small < 0.7 * large, `vacuumed ${small} bytes against ${large} left alone`);
  } finally {
    await vacuumed.close();
    await left.close();
  }
});
