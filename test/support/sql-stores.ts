// The two stores the ledger runs on, for tests that must hold on both: PGlite (embedded, in memory)
// and a real PostgreSQL server (one throwaway cluster per test file, a fresh database per open).
import { after } from 'node:test';
import { openPgliteClient } from '../../src/payments/ledger/pglite-client.ts';
import { openPostgresClient } from '../../src/payments/ledger/postgres-client.ts';
import type { SqlClient } from '../../src/payments/ledger/sql-client.ts';
import { startPostgres } from './postgres-server.ts';
import type { PostgresServer } from './postgres-server.ts';

export interface SqlStore {
  name: string;
  open(): Promise<SqlClient>;
  /** Two clients, each with its own connections, on one fresh database: two instances sharing it. PostgreSQL only. */
  openPair?(): Promise<[SqlClient, SqlClient]>;
}

/** Call at the top level of a test file: the PostgreSQL cluster stops after the file's tests. */
export function useSqlStores(): SqlStore[] {
  let server: Promise<PostgresServer> | undefined;
  let databases = 0;
  after(async () => {
    if (server) await (await server).stop();
  });
  const database = async () => (await (server ??= startPostgres())).createDatabase(`ledger_${++databases}`);
  return [
    { name: 'PGlite', open: () => openPgliteClient() },
    {
      name: 'PostgreSQL',
      open: async () => openPostgresClient({ url: await database() }),
      async openPair() {
        const url = await database();
        return [await openPostgresClient({ url }), await openPostgresClient({ url })];
      },
    },
  ];
}
