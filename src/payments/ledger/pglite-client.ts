// The embedded store: PGlite (PostgreSQL compiled to WASM), file-backed in the data directory,
// or in memory when no directory is given. Needs no server and no native build.
import { PGlite } from '@electric-sql/pglite';
import type { SqlClient } from './sql-client.ts';

export async function openPgliteClient(dataDir?: string): Promise<SqlClient> {
  const db = dataDir ? new PGlite(dataDir) : new PGlite();
  await db.waitReady;
  return {
    async query<Row>(sql: string, params: readonly unknown[] = []) {
      const result = await db.query<Row>(sql, [...params]);
      return { rows: result.rows };
    },
    async exec(sql: string) {
      await db.exec(sql);
    },
    close: () => db.close(),
  };
}
