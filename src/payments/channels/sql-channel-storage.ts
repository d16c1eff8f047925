// The SDK's ChannelStorage on the ledger's database (PGlite or PostgreSQL), so every instance sharing
// the database sees one state per channel and `updateChannel` is atomic across all of them.
import type { Channel, ChannelStorage, ChannelUpdateResult } from '@x402/evm/batch-settlement/server';
import { migrate } from '../ledger/schema.ts';
import type { SqlClient, SqlQueries } from '../ledger/sql-client.ts';
import type { ChannelRow } from './channel-row.ts';
import { CHANNEL_COLUMNS, channelKey, channelLockKey, channelParams, toChannel } from './channel-row.ts';
import { GroupCommit } from './group-commit.ts';
import { chargeVoucherRows, chargedRecord, releaseVoucherRow, reserveVoucherRow } from './voucher-statements.ts';
import type { VoucherCharge, VoucherReservation } from './voucher-statements.ts';

/** Our class of advisory locks for channel updates (migrations: 7_402_001, settler keys: 7_402_002). */
export const CHANNEL_LOCK_CLASS = 7_402_010;

const WRITTEN = [
  'channel_id', 'network', 'payer', 'payer_authorizer', 'receiver', 'receiver_authorizer', 'token', 'withdraw_delay_s',
  'salt', 'balance', 'charged_cumulative_amount', 'signed_max_claimable', 'signature', 'total_claimed',
  'withdraw_requested_s', 'refund_nonce', 'onchain_synced_ms', 'last_request_ms', 'pending_id',
  'pending_max_claimable', 'pending_expires_ms', 'pending_instance',
] as const;

// The claimed total only rises: the chain's never falls, so a lower one written back from an older
// read (a verify that raced a confirmed claim) is stale and must not make the claimer claim again.
const UPSERT = `
INSERT INTO channels (${WRITTEN.join(', ')})
VALUES (${WRITTEN.map((_, i) => `$${i + 1}`).join(', ')})
ON CONFLICT (channel_id) DO UPDATE SET
  ${WRITTEN.filter((c) => c !== 'channel_id' && c !== 'total_claimed' && c !== 'pending_instance').map((c) => `${c} = EXCLUDED.${c}`).join(', ')},
  total_claimed = GREATEST(channels.total_claimed, EXCLUDED.total_claimed),
  pending_instance = CASE
    WHEN EXCLUDED.pending_id IS NULL THEN NULL
    WHEN EXCLUDED.pending_id = channels.pending_id THEN channels.pending_instance
    ELSE EXCLUDED.pending_instance END,
  updated_at = now()
RETURNING ${CHANNEL_COLUMNS}`;

export interface SqlChannelStorageOptions {
  /** The CAIP-2 network of this storage's channels (`eip155:8453`): one storage per network, as one server scheme per network. */
  network: string;
  /**
   * This instance's name (TOOLGATE_INSTANCE_ID), written beside each pending request it makes, so
   * that after a crash it releases its own reservations (`releaseOrphanedReservations`).
   */
  instance?: string;
  /**
   * Told of every change inside the transaction that makes it (a record deleted: `after` undefined);
   * a throw rolls the change back. The ledger writes a charge's row here (ledger/channel-payments.ts).
   */
  observer?: ChannelObserver;
  /**
   * Told of the vouchers one group commit charged, at once, inside its transaction (one statement
   * for many ledger rows); without it `observer` is told of each.
   */
  chargeObserver?: ChargeObserver;
}

/** A voucher's charge as the record took it: only the charged total and the latest voucher differ. */
export interface ChargedVoucher {
  before: Channel;
  after: Channel;
}

export type ChargeObserver = (tx: SqlQueries, charged: readonly ChargedVoucher[]) => Promise<void>;

type VoucherCommit = ChargedVoucher | undefined | Error;

async function sequentially<T, R>(items: readonly T[], work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (const item of items) results.push(await work(item));
  return results;
}

const asError = (error: unknown) => (error instanceof Error ? error : new Error(String(error)));

export type ChannelObserver = (tx: SqlQueries, before: Channel | undefined, after: Channel | undefined) => Promise<void>;

/** Whose reservations a starting instance releases: its own, and on a shared store those of instances not seen alive. */
export interface OrphanScope {
  instance: string;
  /** Instances seen alive on a shared store; absent on an embedded one, where every reservation is a dead process's. */
  live?: ReadonlySet<string>;
}

export class SqlChannelStorage implements ChannelStorage {
  readonly network: string;
  private readonly changeListeners: ((channelId: string) => void)[] = [];
  private readonly instance: string | null;
  private readonly observer: ChannelObserver | undefined;
  private readonly chargeObserver: ChargeObserver | undefined;

  constructor(private readonly db: SqlClient, options: SqlChannelStorageOptions) {
    this.network = options.network;
    this.instance = options.instance ?? null;
    this.observer = options.observer;
    this.chargeObserver = options.chargeObserver;
  }

  /** Brings the schema up to date first (a no-op when another ledger user did). */
  static async open(db: SqlClient, options: SqlChannelStorageOptions): Promise<SqlChannelStorage> {
    await migrate(db);
    return new SqlChannelStorage(db, options);
  }

  /** Told of the channel id after each `updateChannel` that wrote or deleted its record (a copy of it kept elsewhere is stale). */
  onChange(listener: (channelId: string) => void): void {
    this.changeListeners.push(listener);
  }

  async get(channelId: string): Promise<Channel | undefined> {
    const { rows } = await this.db.query<ChannelRow>(
      `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE channel_id = $1 AND network = $2`,
      [channelKey(channelId), this.network],
    );
    return rows[0] ? toChannel(rows[0]) : undefined;
  }

  async list(): Promise<Channel[]> {
    const { rows } = await this.db.query<ChannelRow>(
      `SELECT ${CHANNEL_COLUMNS} FROM channels WHERE network = $1 ORDER BY channel_id`,
      [this.network],
    );
    return rows.map(toChannel);
  }

  /**
   * One transaction: an advisory lock on the channel id serialises every update of that channel,
   * including the first one that creates its row (a row lock cannot: there is no row yet); the
   * row lock keeps single-statement writers (claimed totals) out between the read and the write.
   */
  async updateChannel(channelId: string, update: (current: Channel | undefined) => Channel | undefined): Promise<ChannelUpdateResult> {
    const key = channelKey(channelId);
    const result = await this.updateRecord(key, update);
    if (result.status !== 'unchanged') for (const listener of this.changeListeners) listener(key);
    return result;
  }

  private updateRecord(key: string, update: (current: Channel | undefined) => Channel | undefined): Promise<ChannelUpdateResult> {
    return this.db.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1, $2)', [CHANNEL_LOCK_CLASS, channelLockKey(key)]);
      const current = await this.lockedRow(tx, key);
      const next = update(current);
      // Also covers deleting what is not there (undefined returned for undefined).
      if (next === current) return { channel: current, status: 'unchanged' };
      if (!next) {
        await tx.query('DELETE FROM channels WHERE channel_id = $1', [key]);
        await this.observer?.(tx, current, undefined);
        return { channel: undefined, status: 'deleted' };
      }
      if (channelKey(next.channelId) !== key) {
        throw new Error(`updateChannel(${key}) returned the record of channel ${next.channelId}`);
      }
      const { rows } = await tx.query<ChannelRow>(UPSERT, [...channelParams(key, this.network, next), next.pendingRequest ? this.instance : null]);
      const stored = toChannel(rows[0]!);
      await this.observer?.(tx, current, stored);
      return { channel: stored, status: 'updated' };
    });
  }

  /** The local voucher check's reservation of a record, in one statement (voucher-statements.ts). */
  async reserveVoucher(request: VoucherReservation): Promise<Channel | undefined> {
    const row = await reserveVoucherRow(this.db, this.network, this.instance, request);
    return row ? toChannel(row) : undefined;
  }

  /**
   * Charges a voucher the local check admitted: the record takes it as its latest voucher and its
   * charged total rises by the price, only if the record still expects it (charged total plus the
   * price, within the balance, no withdrawal) and the reservation is this request's: the one in the
   * record (`pendingId`), or, on an embedded store where reservations are kept in memory, none live
   * in the record. The ledger rows are written in the same transaction (the observers). Charges
   * arriving together share one transaction and one statement (group-commit.ts); if it fails, each
   * is tried alone, so one charge's failure is its own. Undefined: not charged (the record changed).
   */
  commitVoucher(charge: VoucherCharge): Promise<ChargedVoucher | undefined> {
    return this.commits.submit(charge).then((result) => {
      if (result instanceof Error) throw result;
      return result;
    });
  }

  private readonly commits = new GroupCommit<VoucherCharge, VoucherCommit>(async (charges) => {
    // One request per channel at a time, so a group names each channel once; if not, one by one.
    if (new Set(charges.map((c) => channelKey(c.channelId))).size === charges.length) {
      try {
        return await this.db.transaction((tx) => this.chargeVouchers(tx, charges));
      } catch {
        // One charge broke the group (its ledger row, say): each again in its own transaction.
      }
    }
    return sequentially(charges, async (charge) => {
      try {
        return (await this.db.transaction((tx) => this.chargeVouchers(tx, [charge])))[0];
      } catch (error) {
        return asError(error);
      }
    });
  });

  private async chargeVouchers(tx: SqlQueries, charges: readonly VoucherCharge[]): Promise<(ChargedVoucher | undefined)[]> {
    const rows = await chargeVoucherRows(tx, this.network, charges);
    const updated = new Map(rows.map((row) => [row.channel_id, row]));
    const results = charges.map((charge): ChargedVoucher | undefined => {
      const row = updated.get(channelKey(charge.channelId));
      if (!row) return undefined;
      const after = chargedRecord(charge, row);
      // The statement changed the charged total, the latest voucher and the reservation only; the
      // observers read the totals and the chain's mirror, the same before and after but the charge.
      return { before: { ...after, chargedCumulativeAmount: (charge.cumulative - charge.price).toString() }, after };
    });
    const charged = results.filter((r): r is ChargedVoucher => r !== undefined);
    if (this.chargeObserver) await this.chargeObserver(tx, charged);
    else for (const { before, after } of charged) await this.observer?.(tx, before, after);
    return results;
  }

  /** Drops a local voucher reservation (the tool failed, or the check refused after reserving). */
  async releaseVoucher(channelId: string, pendingId: string): Promise<void> {
    await releaseVoucherRow(this.db, channelId, pendingId);
  }

  /**
   * Drops the pending requests a crashed process left (start-up only: a live process's call may be
   * running). Safe because the SDK records a charge and clears the reservation in one update before
   * the result leaves: a reservation still there means its result never left and nothing was charged.
   * The mirror of the chain is dropped too (the request may have been a deposit that went through),
   * so the next payment on the channel is verified against the chain. Returns the channels released.
   */
  async releaseOrphanedReservations(scope: OrphanScope): Promise<string[]> {
    const { rows } = await this.db.query<{ channel_id: string }>(
      `UPDATE channels SET pending_id = NULL, pending_max_claimable = NULL, pending_expires_ms = NULL, pending_instance = NULL,
              onchain_synced_ms = NULL, updated_at = now()
        WHERE network = $1 AND pending_id IS NOT NULL
          AND ($2::boolean OR pending_instance IS NULL OR pending_instance = $3 OR NOT (pending_instance = ANY($4::text[])))
        RETURNING channel_id`,
      [this.network, scope.live === undefined, scope.instance, [...(scope.live ?? [])]],
    );
    return rows.map((r) => r.channel_id).sort();
  }

  private async lockedRow(tx: SqlQueries, key: string): Promise<Channel | undefined> {
    const { rows } = await tx.query<ChannelRow>(`SELECT ${CHANNEL_COLUMNS} FROM channels WHERE channel_id = $1 FOR UPDATE`, [key]);
    const row = rows[0];
    if (row && row.network !== this.network) {
      throw new Error(`channel ${key} belongs to ${row.network}, not ${this.network}`);
    }
    return row ? toChannel(row) : undefined;
  }
}
