import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { migrate, migrations } from './schema.ts';
import { useSqlStores } from '../../../test/support/sql-stores.ts';

for (const store of useSqlStores()) {
  describe(`on ${store.name}`, () => {
    test('migrations apply once, in order, and record themselves', async () => {
      const db = await store.open();
      try {
        assert.deepEqual(await migrate(db), migrations.map((m) => m.version));
        assert.deepEqual(await migrate(db), [], 'a second start applies nothing');
        const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
        assert.deepEqual(rows.map((r) => r.version), migrations.map((m) => m.version));
      } finally {
        await db.close();
      }
    });

    test('a ledger made before migrations were numbered is brought up to date, its rows kept', async () => {
      const db = await store.open();
      try {
        await db.exec(migrations[0]!.sql);
        await db.query(`INSERT INTO payments (payer, nonce, tool, amount, network, resource, state) VALUES ('0xa', '0x1', 't', 1000, 'n', 'r', 'settled')`);
        assert.deepEqual(await migrate(db), migrations.map((m) => m.version));
        const { rows } = await db.query<{ state: string; gas_used: string | null }>('SELECT state, gas_used FROM payments');
        assert.deepEqual(rows, [{ state: 'settled', gas_used: null }]);
      } finally {
        await db.close();
      }
    });

    test('the reports\' time filters are served by the partial time indexes (migration 10)', async () => {
      const db = await store.open();
      try {
        await migrate(db);
        const plan = async (where: string) => {
          // A near-empty table is scanned whatever its indexes: forbid that, so the plan shows which index can serve the filter.
          const { rows } = await db.transaction(async (tx) => {
            await tx.exec('SET LOCAL enable_seqscan = off');
            return tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT id FROM payments WHERE ${where}`);
          });
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        };
        assert.match(await plan(`settled_at >= now() - interval '30 days'`), /payments_settled_at/);
        assert.match(await plan('settled_at IS NOT NULL ORDER BY settled_at DESC LIMIT 20'), /payments_settled_at/);
        assert.match(await plan(`received_at >= now() - interval '30 days'`), /payments_received_at/);
        assert.match(await plan(`state = 'settled' ORDER BY updated_at DESC LIMIT 20`), /payments_state_updated/);
        const { rows } = await db.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE tablename = 'payments' AND indexname IN ('payments_state', 'payments_tool_settled')`);
        assert.deepEqual(rows, [], 'the redundant and the unread index are gone');
      } finally {
        await db.close();
      }
    });

    test('a failing migration leaves nothing half-applied', async () => {
      const db = await store.open();
      try {
        const broken = [...migrations, { version: 99, description: 'broken', sql: 'ALTER TABLE payments ADD COLUMN x INTEGER; SELECT * FROM no_such_table;' }];
        await assert.rejects(migrate(db, broken), /no_such_table/);
        const { rows } = await db.query<{ n: number }>("SELECT COUNT(*)::int AS n FROM information_schema.tables WHERE table_name = 'schema_migrations'");
        assert.equal(rows[0]?.n, 0, 'the whole run was rolled back');
      } finally {
        await db.close();
      }
    });
  });
}
