// The SDK's Channel record and its row in the `channels` table (migration 5), both ways.
import type { Channel } from '@x402/evm/batch-settlement/server';

type Hex = `0x${string}`;

const CHANNEL_ID = /^0x[0-9a-fA-F]{64}$/;

/** The table's key: a channel id is a bytes32 hash, kept lowercase. Throws on anything else, as the SDK's storages do. */
export function channelKey(channelId: string): string {
  if (!CHANNEL_ID.test(channelId)) throw new Error(`invalid_batch_settlement_evm_channel_id: ${JSON.stringify(channelId)}`);
  return channelId.toLowerCase();
}

/**
 * An int4 advisory-lock key for a channel: its first 32 bits. A channel id is a keccak hash, so
 * those bits are as spread as any hash of it; a collision only makes two channels wait for each other.
 */
export function channelLockKey(key: string): number {
  return Number.parseInt(key.slice(2, 10), 16) | 0;
}

/** Amounts as text (exact at 78 digits), BIGINTs as whatever the driver gives (string or number). */
export const CHANNEL_COLUMNS = `channel_id, network, payer, payer_authorizer, receiver, receiver_authorizer, token,
  withdraw_delay_s, salt, balance::text AS balance, charged_cumulative_amount::text AS charged_cumulative_amount,
  signed_max_claimable::text AS signed_max_claimable, signature, total_claimed::text AS total_claimed,
  withdraw_requested_s, refund_nonce, onchain_synced_ms, last_request_ms, pending_id,
  pending_max_claimable::text AS pending_max_claimable, pending_expires_ms`;

type Int8 = string | number | bigint;

export interface ChannelRow {
  channel_id: string;
  network: string;
  payer: Hex;
  payer_authorizer: Hex;
  receiver: Hex;
  receiver_authorizer: Hex;
  token: Hex;
  withdraw_delay_s: Int8;
  salt: Hex;
  balance: string;
  charged_cumulative_amount: string;
  signed_max_claimable: string;
  signature: string;
  total_claimed: string;
  withdraw_requested_s: Int8;
  refund_nonce: Int8;
  onchain_synced_ms: Int8 | null;
  last_request_ms: Int8;
  pending_id: string | null;
  pending_max_claimable: string | null;
  pending_expires_ms: Int8 | null;
}

/** Optional fields the row lacks are absent from the record, not present as undefined. */
export function toChannel(row: ChannelRow): Channel {
  const channel: Channel = {
    channelId: row.channel_id,
    channelConfig: {
      payer: row.payer,
      payerAuthorizer: row.payer_authorizer,
      receiver: row.receiver,
      receiverAuthorizer: row.receiver_authorizer,
      token: row.token,
      withdrawDelay: Number(row.withdraw_delay_s),
      salt: row.salt,
    },
    chargedCumulativeAmount: row.charged_cumulative_amount,
    signedMaxClaimable: row.signed_max_claimable,
    signature: row.signature,
    balance: row.balance,
    totalClaimed: row.total_claimed,
    withdrawRequestedAt: Number(row.withdraw_requested_s),
    refundNonce: Number(row.refund_nonce),
    lastRequestTimestamp: Number(row.last_request_ms),
  };
  if (row.onchain_synced_ms !== null) channel.onchainSyncedAt = Number(row.onchain_synced_ms);
  if (row.pending_id !== null && row.pending_max_claimable !== null && row.pending_expires_ms !== null) {
    channel.pendingRequest = {
      pendingId: row.pending_id,
      signedMaxClaimable: row.pending_max_claimable,
      expiresAt: Number(row.pending_expires_ms),
    };
  }
  return channel;
}

/** Parameters $1…$21 of a row, in the order of CHANNEL_COLUMNS (the storage adds the pending request's instance). */
export function channelParams(key: string, network: string, channel: Channel): unknown[] {
  const { channelConfig: config, pendingRequest: pending } = channel;
  return [
    key,
    network,
    config.payer,
    config.payerAuthorizer,
    config.receiver,
    config.receiverAuthorizer,
    config.token,
    config.withdrawDelay,
    config.salt,
    channel.balance,
    channel.chargedCumulativeAmount,
    channel.signedMaxClaimable,
    channel.signature,
    channel.totalClaimed,
    channel.withdrawRequestedAt,
    channel.refundNonce,
    channel.onchainSyncedAt ?? null,
    channel.lastRequestTimestamp,
    pending?.pendingId ?? null,
    pending?.signedMaxClaimable ?? null,
    pending?.expiresAt ?? null,
  ];
}
