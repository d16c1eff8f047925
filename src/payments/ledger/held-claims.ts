// A collector pass's claims, held back from the payment rows until the pass knows whether its settle
// went through. Unheld, a claim marks its voucher rows `claimed` and the settle that follows seconds
// later marks them `settled`: two writes of every row, each ~30 µs of the embedded ledger's thread
// (the gateway's only one) and an entry in each of the row's indexes. Held, a row changes state once:
// straight to `settled` when the settle confirms, or to `claimed` when it does not (`release`). What
// a pass that died leaves held, rows behind their channel's claimed total, is claimed by `claimBehind`.
import { SETTLE_CHUNK, settleInChunks } from './settle-in-chunks.ts';
import type { SqlQueries } from './sql-client.ts';

export class HeldClaims {
  private readonly totals = new Map<string, bigint>();

  /** `onRelease`: told when the hold ends, so its owner routes claims to the rows again. */
  constructor(private readonly db: SqlQueries, private readonly onRelease: () => void) {}

  /** A claim confirmed: the channel's rows up to `claimedTotal` are claimed, written at `settled` or `release`. */
  hold(channelId: string, claimedTotal: bigint): void {
    const key = channelId.toLowerCase();
    const held = this.totals.get(key);
    if (held === undefined || claimedTotal > held) this.totals.set(key, claimedTotal);
  }

  /** The claims held so far, taken out of the hold: those a settle about to be sent covers. */
  take(): ReadonlyMap<string, bigint> {
    const taken = new Map(this.totals);
    this.totals.clear();
    return taken;
  }

  /** The settle sent after `take` confirmed: the rows its claims cover go straight to settled, in chunks (settle-in-chunks.ts). Returns how many. */
  async settled(taken: ReadonlyMap<string, bigint>, chunk = SETTLE_CHUNK): Promise<number> {
    let total = 0;
    for (const [channelId, claimedTotal] of taken) {
      total += await settleInChunks(this.db, `SELECT id FROM payments WHERE channel_id = $1 AND state = 'received' AND channel_cumulative <= $2 LIMIT $3`,
        [channelId, claimedTotal.toString()], chunk, 'claimed_at = now()');
    }
    return total;
  }

  /** Ends the hold: what is still held, and `untaken` (claims whose settle did not confirm), is marked claimed. */
  async release(untaken?: ReadonlyMap<string, bigint>): Promise<void> {
    this.onRelease();
    for (const [channelId, claimedTotal] of untaken ?? []) this.hold(channelId, claimedTotal);
    for (const [channelId, claimedTotal] of this.take()) await markClaimed(this.db, channelId, claimedTotal);
  }
}

/** A channel's rows its claimed total covers, still `received`, turn `claimed`. */
export async function markClaimed(db: SqlQueries, channelId: string, claimedTotal: bigint): Promise<void> {
  await db.query(
    `UPDATE payments SET state = 'claimed', claimed_at = now(), updated_at = now()
      WHERE channel_id = $1 AND state = 'received' AND channel_cumulative <= $2`,
    [channelId.toLowerCase(), claimedTotal.toString()],
  );
}

/**
 * Rows left `received` behind their channel's claimed total on `network`, which only a hold that
 * never ended leaves (a process killed mid-pass), turn `claimed`: the next settle collects them.
 * Returns how many.
 */
export async function claimBehind(db: SqlQueries, network: string): Promise<number> {
  const { rows } = await db.query<{ n: number }>(
    `WITH behind AS (
       UPDATE payments p SET state = 'claimed', claimed_at = now(), updated_at = now()
         FROM channels c
        WHERE c.network = $1 AND p.channel_id = c.channel_id AND p.state = 'received' AND p.channel_cumulative <= c.total_claimed
        RETURNING 1)
     SELECT count(*)::int AS n FROM behind`,
    [network],
  );
  return rows[0]?.n ?? 0;
}
