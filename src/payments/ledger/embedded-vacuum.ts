// PGlite runs no autovacuum. A `payments` row changes state two or three times in its life
// (received → claimed → settled; locked → submitted → settled), and as its state is indexed each change
// is a new row version with new index entries; the old ones stay until a VACUUM. Without one the table
// and its indexes grow with every paid call, for as long as the gateway runs. So on the embedded store
// the gateway vacuums `payments` itself, checked every reconcile tick (30 s), when the dead versions
// reach both 10,000 and a fifth of the live rows: PostgreSQL's own autovacuum trigger (a scale factor of
// 0.2), so that each VACUUM's scan of the whole table and its indexes is paid for by enough dead
// versions. A VACUUM runs on the main thread, as all of PGlite does: its pause is measured in
// docs/architecture.md. PostgreSQL vacuums by itself: nothing to do there.
import type { SqlClient } from './sql-client.ts';

export const VACUUM_POLICY = { deadVersions: 10_000, deadShareOfLive: 0.2 } as const;

/**
 * VACUUMs `payments` if the statistics count enough dead row versions in it (VACUUM_POLICY). Returns
 * how many they counted when it did, undefined when it did not. The statistics lag writes by up to a
 * second or so; a VACUUM due is then done at the next check.
 */
export async function vacuumPaymentsIfDue(db: SqlClient, policy: { deadVersions: number; deadShareOfLive: number } = VACUUM_POLICY): Promise<number | undefined> {
  const { rows } = await db.query<{ dead: string | number; live: string | number }>(
    `SELECT n_dead_tup AS dead, n_live_tup AS live FROM pg_stat_user_tables WHERE relname = 'payments'`,
  );
  const [dead, live] = [Number(rows[0]?.dead ?? 0), Number(rows[0]?.live ?? 0)];
  if (dead < policy.deadVersions || dead < policy.deadShareOfLive * live) return undefined;
  await db.exec('VACUUM payments');
  return dead;
}
