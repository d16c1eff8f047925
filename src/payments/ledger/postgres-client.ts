// The shared store: a PostgreSQL server reached through node-postgres' pool, for several gateway
// instances on one ledger. Same SQL as the embedded store.
import pg from 'pg';
import type { PoolClient } from 'pg';
import type { QueryOptions, SqlClient, SqlQueries } from './sql-client.ts';

/** The database cannot be reached (start-up refuses with it; calls answer 503, free). */
export class DatabaseUnreachableError extends Error {
  override readonly name = 'DatabaseUnreachableError';
}

export interface PostgresOptions {
  /** `postgres://user:password@host:port/database` (libpq's URL form). */
  url: string;
  /** Connections per instance; the ledger's statements are short. */
  maxConnections?: number;
  connectTimeoutMs?: number;
}

/** `postgres://user:***@host:port/db`: for messages, never the password. */
export function redactDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return 'the database URL (unparseable)';
  }
}

/** A name for each prepared SQL text: node-postgres prepares a named statement once per connection. */
const statementNames = new Map<string, string>();
const statementName = (sql: string) => {
  let name = statementNames.get(sql);
  if (!name) statementNames.set(sql, (name = `toolgate_${statementNames.size + 1}`));
  return name;
};

function queries(db: pg.Pool | PoolClient): SqlQueries {
  return {
    async query<Row>(sql: string, params: readonly unknown[] = [], options?: QueryOptions) {
      const values = [...params];
      const result = await (options?.prepared ? db.query({ name: statementName(sql), text: sql, values }) : db.query(sql, values));
      return { rows: result.rows as Row[] };
    },
    async exec(sql: string) {
      await db.query(sql);
    },
  };
}

export async function openPostgresClient(options: PostgresOptions): Promise<SqlClient> {
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
  });
  // An idle connection the server drops (restart, failover) must not crash the process.
  pool.on('error', () => undefined);
  try {
    await pool.query('SELECT 1');
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw new DatabaseUnreachableError(`cannot reach PostgreSQL at ${redactDatabaseUrl(options.url)}: ${(error as Error).message}`);
  }
  return {
    ...queries(pool),
    async transaction(work) {
      const client = await pool.connect();
      let broken: Error | undefined;
      // A connection lost while no query runs (idle in a transaction holding a lock) is reported as
      // an 'error' event on the client: unheard, it would crash the process. The next query fails.
      const lost = (error: Error) => {
        broken = error;
      };
      client.on('error', lost);
      try {
        await client.query('BEGIN');
        const result = await work(queries(client));
        await client.query('COMMIT');
        return result;
      } catch (error) {
        // A connection that cannot even roll back is discarded, not returned to the pool.
        await client.query('ROLLBACK').catch((rollback: Error) => {
          broken = rollback;
        });
        throw error;
      } finally {
        client.off('error', lost);
        client.release(broken);
      }
    },
    close: () => pool.end(),
  };
}
