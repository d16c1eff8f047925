// The embedded store: PGlite (PostgreSQL compiled to WASM), file-backed in the data directory,
// or in memory when no directory is given. Needs no server and no native build.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { PgliteStatements } from './pglite-statements.ts';
import type { SqlClient } from './sql-client.ts';

// PostgreSQL's default 128 MB of shared buffers cost ~140 MB of resident memory in the WASM heap;
// the ledger's working set (one narrow table, its indexes) fits many times in 16 MB.
const POSTGRESQL_CONF = ['shared_buffers=16MB'];

const run = promisify(execFile);

/**
 * Creates the database cluster in `dataDir` in a short-lived child process, unless it is there
 * already: initdb grows PGlite's WASM heap to ~0.7 GB, and a WASM heap never shrinks, so done in
 * the gateway's own process it would hold that memory for the process's whole life.
 */
export async function initialiseDataDir(dataDir: string): Promise<void> {
  if (existsSync(join(dataDir, 'PG_VERSION'))) return;
  const script = `
    const { PGlite } = await import(${JSON.stringify(import.meta.resolve('@electric-sql/pglite'))});
    const db = new PGlite({ dataDir: process.argv[1], postgresqlconf: ${JSON.stringify(POSTGRESQL_CONF)} });
    await db.waitReady;
    await db.close();`;
  // No NODE_OPTIONS: the script is plain JavaScript and needs no loader the parent may run under.
  await run(process.execPath, ['--input-type=module', '-e', script, dataDir], { env: { ...process.env, NODE_OPTIONS: '' } });
}

export async function openPgliteClient(dataDir?: string): Promise<SqlClient> {
  if (dataDir) await initialiseDataDir(dataDir);
  const db = new PGlite({ ...(dataDir ? { dataDir } : {}), postgresqlconf: POSTGRESQL_CONF });
  await db.waitReady;
  const statements = new PgliteStatements(db);
  return {
    query: (sql, params, options) => statements.query(sql, params, options),
    async exec(sql) {
      await db.exec(sql);
    },
    transaction: (work) => statements.transaction(work),
    close: () => db.close(),
  };
}
