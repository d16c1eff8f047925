// Turning many ledger rows `settled` without stalling the gateway: one statement over a busy pass's
// 30k rows held the embedded store's only thread (the gateway's) for 0.9 s; in chunks of 1,000 the
// longest pause was 64 ms, the event loop running between chunks. A chunk a crash leaves unwritten
// is collected by the next confirmed settle.
import type { SqlQueries } from './sql-client.ts';

/** Rows per statement: ~10-20 ms of the thread each on the embedded store. */
export const SETTLE_CHUNK = 1_000;

/**
 * Settles the rows `select` picks, `chunk` at a time, until a chunk comes back short; returns how
 * many. `select` is a `SELECT id FROM payments …` whose last parameter, `$<params.length + 1>`, is
 * its LIMIT; `alsoSet`, what else the rows take besides their state and times (`claimed_at = now()`).
 */
export async function settleInChunks(db: SqlQueries, select: string, params: readonly unknown[], chunk = SETTLE_CHUNK, alsoSet?: string): Promise<number> {
  let total = 0;
  for (;;) {
    const { rows } = await db.query<{ n: number }>(
      `WITH collected AS (
         UPDATE payments SET state = 'settled', ${alsoSet ? `${alsoSet}, ` : ''}settled_at = now(), updated_at = now()
          WHERE id IN (${select})
          RETURNING 1)
       SELECT count(*)::int AS n FROM collected`,
      [...params, chunk],
    );
    const n = rows[0]?.n ?? 0;
    total += n;
    if (n < chunk) return total;
    await new Promise((resolve) => setImmediate(resolve));
  }
}
