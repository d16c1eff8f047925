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
}

/** Call at the top level of a test file: the PostgreSQL cluster stops after the file's tests. */
export function useSqlStores(): SqlStore[] {
  let server: Promise<PostgresServer> | undefined;
  let databases = 0;
  after(async () => {
    if (server) await (await server).stop();
  });
  return [
    { name: 'PGlite', open: () => openPgliteClient() },
    {
      name: 'PostgreSQL',
      async open() {
        const running = await (server ??= startPostgres());
        return openPostgresClient({ url: await running.createDatabase(`ledger_${++databases}`) });
      },
    },
  ];
}
