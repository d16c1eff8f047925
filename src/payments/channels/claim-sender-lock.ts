// One instance at a time sends a network's voucher claims, so two instances never claim the same
// vouchers: the second batch would revert (claim batches are all-or-nothing) and waste its gas.
import type { SqlClient } from '../ledger/sql-client.ts';

export type ClaimTurn<T> = { held: true; value: T } | { held: false };

export interface ClaimSenderLock {
  /**
   * Runs `send` if no other holder is sending claims for this network, else returns `{ held: false }`
   * at once: a claimer that finds the lock taken skips its turn rather than queueing, since the
   * holder is claiming the same vouchers and the next turn lists afresh.
   */
  tryHold<T>(send: () => Promise<T>): Promise<ClaimTurn<T>>;
}

/** Our class of advisory locks for claim senders (channel updates use 7_402_010). */
export const CLAIM_SENDER_LOCK_CLASS = 7_402_011;

/** FNV-1a, 32 bits, as an int4: one lock per network name. */
function networkLockKey(network: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(network)) hash = Math.imul(hash ^ byte, 0x01000193);
  return hash | 0;
}

/**
 * For instances sharing a PostgreSQL server. The lock belongs to a transaction held open while
 * `send` runs, like the settler-key lock: released on commit, rollback, or when a crashed instance's
 * connection drops, so a dead holder never blocks claims. `send` must use other connections.
 */
export class AdvisoryClaimSenderLock implements ClaimSenderLock {
  private readonly key: number;

  constructor(private readonly db: SqlClient, network: string) {
    this.key = networkLockKey(network);
  }

  tryHold<T>(send: () => Promise<T>): Promise<ClaimTurn<T>> {
    return this.db.transaction(async (tx): Promise<ClaimTurn<T>> => {
      const { rows } = await tx.query<{ held: boolean }>('SELECT pg_try_advisory_xact_lock($1, $2) AS held', [CLAIM_SENDER_LOCK_CLASS, this.key]);
      if (!rows[0]?.held) return { held: false };
      return { held: true, value: await send() };
    });
  }
}

/**
 * For PGlite: one process owns the database, so the lock is in memory. An advisory lock would not
 * do: PGlite's one connection is one session, where advisory locks are re-entrant, and a
 * transaction held open for the send would stop every other query of the gateway.
 */
export class LocalClaimSenderLock implements ClaimSenderLock {
  private busy = false;

  async tryHold<T>(send: () => Promise<T>): Promise<ClaimTurn<T>> {
    if (this.busy) return { held: false };
    this.busy = true;
    try {
      return { held: true, value: await send() };
    } finally {
      this.busy = false;
    }
  }
}
