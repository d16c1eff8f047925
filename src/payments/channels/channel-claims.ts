// What the claimer needs beside the SDK's records: which channels hold charges not yet claimed on
// chain, most urgent first, and the claimed totals a confirmed `Claimed` event proves.
import type { Channel } from '@x402/evm/batch-settlement/server';
import type { SqlClient } from '../ledger/sql-client.ts';
import type { ChannelRow } from './channel-row.ts';
import { CHANNEL_COLUMNS, channelKey, toChannel } from './channel-row.ts';

/** From a `Claimed(channelId, sender, claimAmount, newTotalClaimed)` event of a confirmed transaction. */
export interface ConfirmedClaim {
  channelId: string;
  newTotalClaimed: bigint | string;
}

/** What the channels hold at a glance, in atomic USDC. */
export interface ChannelSummary {
  open: number;
  /** Deposited and still in the channels (the records' balances). */
  deposits: bigint;
  /** Charged for calls and not yet claimed on chain: revenue at risk until claimed. */
  unclaimed: bigint;
  /** The nearest withdrawal deadline (Unix seconds) of a channel holding unclaimed charges, if any. */
  nearestDeadline: number | undefined;
}

export class SqlChannelClaims {
  constructor(private readonly db: SqlClient, private readonly network: string) {}

  /**
   * Channels whose charged total exceeds the claimed one, at most `limit`: a withdrawing channel
   * first, the nearest deadline first (a voucher unclaimed when it passes is lost), then the
   * longest idle (its voucher will not move under the claim). Claimable is the charged total, not
   * the latest voucher: a voucher reserved for a call that then failed is signed for more than
   * was earned, and the SDK claims `chargedCumulativeAmount` too.
   */
  async unclaimed(limit: number): Promise<Channel[]> {
    const { rows } = await this.db.query<ChannelRow>(
      `SELECT ${CHANNEL_COLUMNS} FROM channels
        WHERE network = $1 AND charged_cumulative_amount > total_claimed
        ORDER BY withdraw_deadline_s ASC NULLS LAST, last_request_ms ASC, channel_id
        LIMIT $2`,
      [this.network, limit],
    );
    return rows.map(toChannel);
  }

  async summary(): Promise<ChannelSummary> {
    const { rows } = await this.db.query<{ open: string; deposits: string | null; unclaimed: string | null; deadline: string | null }>(
      `SELECT count(*) AS open, sum(balance)::text AS deposits,
              sum(charged_cumulative_amount - total_claimed) FILTER (WHERE charged_cumulative_amount > total_claimed)::text AS unclaimed,
              min(withdraw_deadline_s) FILTER (WHERE charged_cumulative_amount > total_claimed)::text AS deadline
         FROM channels WHERE network = $1`,
      [this.network],
    );
    const row = rows[0];
    return {
      open: Number(row?.open ?? 0),
      deposits: BigInt(row?.deposits ?? 0),
      unclaimed: BigInt(row?.unclaimed ?? 0),
      nearestDeadline: row?.deadline == null ? undefined : Number(row.deadline),
    };
  }

  /**
   * Raises each channel's claimed total to the confirmed one, never lowers it (events may arrive
   * twice or out of order). Returns the channel ids that rose. A channel no longer stored (refunded
   * and deleted) is skipped.
   */
  async recordClaimed(claims: readonly ConfirmedClaim[]): Promise<string[]> {
    if (claims.length === 0) return [];
    const { rows } = await this.db.query<{ channel_id: string }>(
      `UPDATE channels c SET total_claimed = k.total, updated_at = now()
         FROM (SELECT id, MAX(total) AS total FROM unnest($1::text[], $2::numeric[]) AS u(id, total) GROUP BY id) AS k
        WHERE c.channel_id = k.id AND c.network = $3 AND c.total_claimed < k.total
        RETURNING c.channel_id`,
      [claims.map((c) => channelKey(c.channelId)), claims.map((c) => c.newTotalClaimed.toString()), this.network],
    );
    return rows.map((r) => r.channel_id).sort();
  }
}
