// The statements of the local voucher check (schemes/batch-settlement/local-vouchers.ts) on the
// `channels` table: reserve a record for a voucher, charge vouchers, release a reservation. Each
// states in SQL the conditions the SDK checks in code before it reserves and charges, so that a
// record changed by anyone since it was read is never charged on stale grounds.
import type { Channel } from '@x402/evm/batch-settlement/server';
import type { SqlQueries } from '../ledger/sql-client.ts';
import type { ChannelRow } from './channel-row.ts';
import { CHANNEL_COLUMNS, channelKey } from './channel-row.ts';

/** A voucher's reservation as the local voucher check asks for it. */
export interface VoucherReservation {
  channelId: string;
  pendingId: string;
  /** The voucher's maxClaimableAmount. */
  cumulative: bigint;
  /** The call's price (atomic): the record's charged total must be `cumulative - price`. */
  price: bigint;
  nowMs: number;
  expiresAtMs: number;
  /** The record's mirror of the chain must have been read at or after this time. */
  syncedSinceMs: number;
}

export interface VoucherCharge {
  channelId: string;
  /** The record the voucher was admitted on: the charged record is built from it (chargedRecord). */
  record: Channel;
  /** The reservation in the record; absent: the reservation is in this process's memory (embedded store). */
  pendingId?: string;
  cumulative: bigint;
  price: bigint;
  signature: string;
  nowMs: number;
}

/**
 * One statement: the channel is reserved for this request only if it is free (no live pending
 * request) and the voucher is the one its record expects: the charged total plus the price, within
 * the deposited balance, above the claimed total, no withdrawal started, the chain's state read
 * within `syncedSinceMs`. The same conditions as the SDK's local verification and reservation; a row
 * lock, as every writer of the row takes. Undefined: not reserved.
 */
export async function reserveVoucherRow(db: SqlQueries, network: string, instance: string | null, request: VoucherReservation): Promise<ChannelRow | undefined> {
  const { rows } = await db.query<ChannelRow>(
    `UPDATE channels SET pending_id = $3, pending_max_claimable = $4::numeric, pending_expires_ms = $5, pending_instance = $6,
            last_request_ms = $7, updated_at = now()
      WHERE channel_id = $1 AND network = $2
        AND (pending_id IS NULL OR pending_expires_ms <= $7)
        AND charged_cumulative_amount + $8::numeric = $4::numeric
        AND balance >= $4::numeric AND total_claimed < $4::numeric
        AND withdraw_requested_s = 0
        AND onchain_synced_ms >= $9
      RETURNING ${CHANNEL_COLUMNS}`,
    [channelKey(request.channelId), network, request.pendingId, request.cumulative.toString(), request.expiresAtMs, instance,
      request.nowMs, request.price.toString(), request.syncedSinceMs],
    PRIMARY_KEY_PLAN,
  );
  return rows[0];
}

// A charge's conditions, the same in both statements below: the reservation is this request's (the
// record's own, or none live in it), the record expects this voucher, no withdrawal.
const CHARGEABLE = (c: string, pendingId: string, nowMs: string, price: string, cumulative: string) => `
  (CASE WHEN ${pendingId} IS NULL THEN ${c}pending_id IS NULL OR ${c}pending_expires_ms <= ${nowMs} ELSE ${c}pending_id = ${pendingId} END)
  AND ${c}charged_cumulative_amount + ${price} = ${cumulative}
  AND ${c}balance >= ${cumulative} AND ${c}withdraw_requested_s = 0`;

/**
 * A statement that finds its channel by primary key whatever the values: its plan is kept
 * (QueryOptions). The group charge's is kept too, but planned with sequential scans off (below).
 */
const PRIMARY_KEY_PLAN = { prepared: true } as const;

/**
 * What a charge returns of each record it changed: the columns someone else may have written since the
 * voucher was admitted (a claim, a top-up, a withdrawal). The rest is the admitted record's (the
 * channel's configuration never changes) or the charge's own. Returning the whole row cost a third
 * more of the group statement on PGlite (~100 against ~70 µs a voucher, in groups of 17), mostly in writing and
 * reading its amounts and hex as text.
 */
export interface ChargedRow {
  channel_id: string;
  balance: string;
  total_claimed: string;
  withdraw_requested_s: string | number | bigint;
  refund_nonce: string | number | bigint;
  onchain_synced_ms: string | number | bigint | null;
}

const CHARGED_COLUMNS = (c: string) =>
  `${c}channel_id, ${c}balance::text AS balance, ${c}total_claimed::text AS total_claimed, ${c}withdraw_requested_s, ${c}refund_nonce, ${c}onchain_synced_ms`;

/** The record after its charge, as the whole row would read: no reservation left, the voucher its latest. */
export function chargedRecord(charge: VoucherCharge, row: ChargedRow): Channel {
  const { pendingRequest: _cleared, onchainSyncedAt: _read, ...record } = charge.record;
  const cumulative = charge.cumulative.toString();
  const after: Channel = {
    ...record,
    balance: row.balance,
    totalClaimed: row.total_claimed,
    withdrawRequestedAt: Number(row.withdraw_requested_s),
    refundNonce: Number(row.refund_nonce),
    chargedCumulativeAmount: cumulative,
    signedMaxClaimable: cumulative,
    signature: charge.signature as Channel['signature'],
    lastRequestTimestamp: charge.nowMs,
  };
  if (row.onchain_synced_ms !== null) after.onchainSyncedAt = Number(row.onchain_synced_ms);
  return after;
}

/** The charge of a group of vouchers, one per channel: $1 channel ids, $2 reservations, $3 cumulative amounts, $4 prices, $5 signatures, $6 times, $7 the network. */
export const GROUP_CHARGE = `UPDATE channels c SET charged_cumulative_amount = v.cumulative, signed_max_claimable = v.cumulative, signature = v.signature,
        last_request_ms = v.now_ms, pending_id = NULL, pending_max_claimable = NULL, pending_expires_ms = NULL, pending_instance = NULL,
        updated_at = now()
   FROM unnest($1::text[], $2::text[], $3::numeric[], $4::numeric[], $5::text[], $6::bigint[])
     AS v(channel_id, pending_id, cumulative, price, signature, now_ms)
  WHERE c.channel_id = ANY($1::text[]) AND c.channel_id = v.channel_id AND c.network = $7
    AND ${CHARGEABLE('c.', 'v.pending_id', 'v.now_ms', 'v.price', 'v.cumulative')}
  RETURNING ${CHARGED_COLUMNS('c.')}`;

/** Charges the vouchers whose records allow it; returns what it read of the records it changed (any order). */
export async function chargeVoucherRows(tx: SqlQueries, network: string, charges: readonly VoucherCharge[]): Promise<ChargedRow[]> {
  const [only] = charges;
  // Alone, a charge takes the plain statement: the join over unnest costs more to plan than it saves for one row (~1.8 against ~1.4 ms on PGlite).
  if (only && charges.length === 1) {
    const { rows } = await tx.query<ChargedRow>(
      `UPDATE channels SET charged_cumulative_amount = $3::numeric, signed_max_claimable = $3::numeric, signature = $4, last_request_ms = $5,
              pending_id = NULL, pending_max_claimable = NULL, pending_expires_ms = NULL, pending_instance = NULL, updated_at = now()
        WHERE channel_id = $1 AND network = $7 AND ${CHARGEABLE('', '$2::text', '$5', '$6::numeric', '$3::numeric')}
        RETURNING ${CHARGED_COLUMNS('')}`,
      [channelKey(only.channelId), only.pendingId ?? null, only.cumulative.toString(), only.signature, only.nowMs, only.price.toString(), network],
      PRIMARY_KEY_PLAN,
    );
    return rows;
  }
  const column = <T>(pick: (c: VoucherCharge) => T) => charges.map(pick);
  // Planned once and kept, where planning it for each group's values cost ~0.4 ms of a group of 17's
  // ~1.4 ms on PGlite. A kept plan is made once, from the table's size then: with sequential scans
  // allowed, a gateway started with few channels would keep scanning them all as they grow into the
  // thousands (PGlite gathers no statistics and nothing invalidates the plan). Planned with them off,
  // it looks the group's channels up by primary key (`= ANY`) at any size. SET LOCAL ends with the transaction.
  await tx.exec('SET LOCAL enable_seqscan = off');
  const { rows } = await tx.query<ChargedRow>(
    GROUP_CHARGE,
    [column((c) => channelKey(c.channelId)), column((c) => c.pendingId ?? null), column((c) => c.cumulative.toString()), column((c) => c.price.toString()),
      column((c) => c.signature), column((c) => c.nowMs), network],
    PRIMARY_KEY_PLAN,
  );
  return rows;
}

/** Drops a local voucher reservation (the tool failed). */
export async function releaseVoucherRow(db: SqlQueries, channelId: string, pendingId: string): Promise<void> {
  await db.query(
    `UPDATE channels SET pending_id = NULL, pending_max_claimable = NULL, pending_expires_ms = NULL, pending_instance = NULL, updated_at = now()
      WHERE channel_id = $1 AND pending_id = $2`,
    [channelKey(channelId), pendingId],
    PRIMARY_KEY_PLAN,
  );
}
