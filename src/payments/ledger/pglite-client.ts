// The embedded store: PGlite (PostgreSQL compiled to WASM), file-backed in the data directory,
// or in memory when no directory is given. Needs no server and no native build.
import { PGlite } from '@electric-sql/pglite';
import type { SqlClient, SqlQueries } from './sql-client.ts';

// PostgreSQL's default 128 MB of shared buffers cost ~140 MB of resident memory in the WASM heap;
// the ledger's working set (one narrow table, its indexes) fits many times in 16 MB.
const POSTGRESQL_CONF = ['shared_buffers=16MB'];

interface PgliteQueries {
  query<Row>(sql: string, params?: unknown[]): Promise<{ rows: Row[] }>;
  exec(sql: string): Promise<unknown>;
}

function queries(db: PgliteQueries): SqlQueries {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await db.query<Row>(sql, [...params]);
      return { rows: result.rows };
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
  };
}

export async function openPgliteClient(dataDir?: string): Promise<SqlClient> {
  const db = new PGlite({ ...(dataDir ? { dataDir } : {}), postgresqlconf: POSTGRESQL_CONF });
  await db.waitReady;
  return {
    ...queries(db),
    transaction: (work) => db.transaction((tx) => work(queries(tx))),
    close: () => db.close(),
  };
}
