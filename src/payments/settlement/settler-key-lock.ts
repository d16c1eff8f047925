// Instances sharing one database may share settler keys. A key's nonce is then read from the node
// and spent under a database lock, so two instances never sign two transactions with one nonce.
import type { Address } from 'viem';
import type { SqlClient } from '../ledger/sql-client.ts';

export interface SettlerKeyLock {
  /** Runs `send` while no other instance sends from `settler`. */
  hold<T>(settler: Address, send: () => Promise<T>): Promise<T>;
}

/** Our class of advisory locks (the migrations use a single-key lock of their own). */
const SETTLER_LOCK_CLASS = 7_402_002;

/** PostgreSQL advisory lock, held for one transaction: released on commit, rollback or a lost connection. */
export class AdvisorySettlerKeyLock implements SettlerKeyLock {
  constructor(private readonly db: SqlClient) {}

  hold<T>(settler: Address, send: () => Promise<T>): Promise<T> {
    // 28 bits of the address: a collision only makes two keys wait for each other.
    const key = Number.parseInt(settler.slice(2, 9), 16);
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [SETTLER_LOCK_CLASS, key]);
      return send();
    });
  }
}
