// VACUUM for the embedded ledger. PGlite runs PostgreSQL without its background workers, so no
// autovacuum ever runs: every voucher rewrites its channel's row (and its index entries), and the
// dead versions stay. Measured: the `channels` table of 50 channels grew by ~28 bytes per voucher
// (11.5 MB after 400k vouchers) and a group charge slowed by ~25 %; vacuumed every 17k vouchers it
// stayed under 0.6 MB, each VACUUM taking 3-8 ms. So the hot tables are vacuumed on a timer, on the
// main thread like every PGlite statement, between two queries. PostgreSQL (shared ledger) has its
// own autovacuum and needs none of this.
import type { Logger } from '../../log.ts';
import type { SqlQueries } from './sql-client.ts';

/** Tables whose rows are rewritten on the paid path, small enough to vacuum often. */
export const HOT_TABLES = ['channels'] as const;
export const VACUUM_INTERVAL_MS = 30_000;

export class EmbeddedVacuum {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(
    private readonly db: SqlQueries,
    private readonly log: Pick<Logger, 'warn'>,
    private readonly intervalMs = VACUUM_INTERVAL_MS,
    private readonly tables: readonly string[] = HOT_TABLES,
  ) {}

  start(): void {
    this.timer ??= setInterval(() => void this.vacuum(), this.intervalMs);
    this.timer.unref();
  }

  /** One pass over the tables; a pass still running is not started twice. */
  vacuum(): Promise<void> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private async pass(): Promise<void> {
    for (const table of this.tables) {
      try {
        await this.db.exec(`VACUUM ${table}`);
      } catch (error) {
        // A missed pass only lets dead rows stay until the next one.
        this.log.warn({ err: error, table }, 'the embedded ledger could not vacuum a table');
      }
    }
  }
}
