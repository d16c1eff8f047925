// Our own check of a voucher (a batch-settlement payment on a channel that already holds a deposit),
// beside the SDK's. The SDK's path costs ~6 ms of the main thread per voucher (viem's pure-JS
// recovery, a read and two channel transactions); this one the signature recovered natively, and:
//  - on the embedded store (this process's alone): the record as this process last charged it (read
//    once), the reservation kept in memory (the scheme's `track`), the charge and its ledger row in
//    one transaction and one statement shared with the other charges of the same turn (group commit);
//  - on a shared PostgreSQL: the record checked and reserved in one statement every instance sees,
//    then the same charge transaction.
// It takes only the case it can decide alone: a fresh, well-formed voucher for the amount the record
// expects on a channel whose mirror of the chain is recent. Anything else (no record yet, a busy
// channel, a wrong amount, a withdrawal, a stale mirror) goes to the SDK's path, which answers with
// the scheme's own reasons and corrective 402s. Why we chose to: docs/decisions.md.
import { computeChannelId } from '@x402/evm/batch-settlement/client';
import type { Channel } from '@x402/evm/batch-settlement/server';
import type { PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { Hex } from 'viem';
import { randomUUID } from 'node:crypto';
import type { ChargedVoucher } from '../../channels/sql-channel-storage.ts';
import { voucherSettleResponse } from '../../ledger/channel-payments.ts';
import type { VoucherCharge, VoucherReservation } from '../../channels/voucher-statements.ts';
import { CHANNEL_BUSY, INVALID_VOUCHER_SIGNATURE } from './reason-codes.ts';
import { recoverVoucherSigner } from './voucher-signature.ts';

/** What the local check needs from channel storage (SqlChannelStorage has it). */
export interface VoucherStore {
  get(channelId: string): Promise<Channel | undefined>;
  /** Told of each record written by anyone but `commitVoucher` (the SDK's path, the watcher, refunds). */
  onChange(listener: (channelId: string) => void): void;
  reserveVoucher(request: VoucherReservation): Promise<Channel | undefined>;
  commitVoucher(charge: VoucherCharge): Promise<ChargedVoucher | undefined>;
  releaseVoucher(channelId: string, pendingId: string): Promise<void>;
}

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** A voucher payload, as checkBatchSettlementPayload has let it through. */
export interface VoucherPayload {
  type: 'voucher' | 'deposit' | 'refund';
  channelConfig: {
    payer: string; payerAuthorizer: string; receiver: string; receiverAuthorizer: string; token: string; withdrawDelay: number; salt: string;
  };
  voucher: { channelId: string; maxClaimableAmount: string; signature: string };
}

export type LocalVoucherDecision =
  | { kind: 'reserved'; reservation: LocalReservation }
  | { kind: 'refused'; reason: string; message: string }
  /** Not decided here: the SDK's path takes it. */
  | { kind: 'sdk' };

export interface LocalReservation {
  /** Records the charge and its ledger row (the storage's observer) in one transaction: the SDK's answer to a voucher. */
  settle(): Promise<SettleResponse>;
  release(): Promise<void>;
}

export interface LocalVouchersOptions {
  /** Where vouchers are reserved and charged; absent (TOOLGATE_CHANNEL_VOUCHER_CHECK=sdk): only signatures are checked here. */
  store?: VoucherStore;
  chainId: number;
  /** How long the record's mirror of the chain is trusted (the SDK's onchain-state TTL). */
  onchainStateTtlMs: number;
  /**
   * The store is this process's alone (the embedded PGlite): a voucher's reservation is the
   * scheme's in-memory one (`track`), the record is read, not written, to admit it, and its charge
   * requires no live reservation in the record. Otherwise (PostgreSQL, shared by instances) the
   * reservation is written in the record, where every instance sees it.
   */
  exclusiveStore?: boolean;
  now?: () => number;
}

// A reservation lives as long as the SDK's would (its pendingExpiresAt): maxTimeoutSeconds within 5 s..10 min.
const reservationMs = (maxTimeoutSeconds: number) => Math.min(600_000, Math.max(5_000, maxTimeoutSeconds * 1_000));

// Channel ids already bound to their config (a keccak of the config each: computed once per channel).
const MAX_BOUND_CHANNELS = 100_000;
// Records kept for the embedded store's admissions (~1 KB each).
const MAX_KEPT_RECORDS = 10_000;

export class LocalVouchers {
  private readonly bound = new Map<string, string>();
  private readonly inFlight = new Set<string>();
  /**
   * Embedded store: the records as our own charges left them, so that admitting a voucher reads
   * nothing. Any other write drops its copy (`onChange`); a copy gone stale anyway (the collector's
   * claimed total, which only makes the check easier, never wrongly) is caught by the charge's own
   * conditions, which are the admission's.
   */
  private readonly kept = new Map<string, Channel>();
  private readonly now: () => number;

  constructor(private readonly options: LocalVouchersOptions) {
    this.now = options.now ?? Date.now;
    if (options.exclusiveStore) options.store?.onChange((channelId) => this.kept.delete(channelId.toLowerCase()));
  }

  /**
   * Marks a channel as having a request in flight in this process; undefined if it already has one.
   * The scheme holds it around every payment (either path) until the call's charge is committed or
   * released: with an exclusive store it is the local check's reservation.
   */
  track(channelId: string): (() => void) | undefined {
    const id = channelId.toLowerCase();
    if (this.inFlight.has(id)) return undefined;
    this.inFlight.add(id);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      this.inFlight.delete(id);
    };
  }

  /** For a payload the scheme is tracking (`track`): our check, a refusal, or the SDK's path. */
  async decide(payload: VoucherPayload, requirements: PaymentRequirements): Promise<LocalVoucherDecision> {
    const { channelConfig: config, voucher } = payload;
    // A zero payer authorizer means the payer itself signs, possibly as a contract (ERC-1271): the
    // chain decides, through the SDK's facilitator.
    if (config.payerAuthorizer.toLowerCase() === ZERO_ADDRESS) return { kind: 'sdk' };
    const cumulative = BigInt(voucher.maxClaimableAmount);
    const recovered = await recoverVoucherSigner(this.options.chainId, voucher.channelId as Hex, cumulative, voucher.signature as Hex);
    // Every payload carries a voucher that may be claimed: one whose signature the contract refuses
    // (high s, v not 27/28, not 65 bytes) is refused for all three types; the SDK accepts some of them.
    if (!recovered.ok) return { kind: 'refused', reason: INVALID_VOUCHER_SIGNATURE, message: signatureProblem(recovered.reason) };
    const { store } = this.options;
    if (!store || payload.type !== 'voucher' || !this.bindsTo(payload, requirements)) return { kind: 'sdk' };
    if (recovered.signer.toLowerCase() !== config.payerAuthorizer.toLowerCase()) {
      return { kind: 'refused', reason: INVALID_VOUCHER_SIGNATURE, message: 'the voucher is not signed by the channel\'s payer authorizer' };
    }

    const price = BigInt(requirements.amount);
    const nowMs = this.now();
    const payer = config.payer.toLowerCase();
    const syncedSinceMs = nowMs - this.options.onchainStateTtlMs;
    const settled = (charged: ChargedVoucher | undefined): SettleResponse => (charged
      ? voucherSettleResponse({ ...charged, payer, network: requirements.network, amount: requirements.amount })
      : { success: false, errorReason: CHANNEL_BUSY, errorMessage: 'the channel changed before this call\'s charge (its reservation expired, a refund or a withdrawal); nothing was charged', transaction: '', network: requirements.network, payer });
    const charge = { channelId: voucher.channelId, cumulative, price, signature: voucher.signature };

    if (this.options.exclusiveStore) {
      const id = voucher.channelId.toLowerCase();
      const record = this.kept.get(id) ?? await store.get(id);
      if (!record || !expects(record, cumulative, price, nowMs, syncedSinceMs)) {
        this.kept.delete(id);
        return { kind: 'sdk' };
      }
      this.keep(id, record);
      return {
        kind: 'reserved',
        reservation: {
          release: async () => undefined,
          settle: async () => {
            let charged: ChargedVoucher | undefined;
            try {
              charged = await store.commitVoucher({ ...charge, record, nowMs: this.now() });
            } finally {
              this.kept.delete(id);
            }
            if (charged) this.keep(id, charged.after);
            return settled(charged);
          },
        },
      };
    }

    const pendingId = randomUUID();
    const reserved = await store.reserveVoucher({
      channelId: voucher.channelId, pendingId, cumulative, price, nowMs,
      expiresAtMs: nowMs + reservationMs(requirements.maxTimeoutSeconds), syncedSinceMs,
    });
    if (!reserved) return { kind: 'sdk' };
    return {
      kind: 'reserved',
      reservation: {
        release: () => store.releaseVoucher(voucher.channelId, pendingId),
        settle: async () => settled(await store.commitVoucher({ ...charge, record: reserved, pendingId, nowMs: this.now() })),
      },
    };
  }

  private keep(id: string, record: Channel): void {
    if (this.kept.size >= MAX_KEPT_RECORDS && !this.kept.has(id)) this.kept.clear();
    this.kept.set(id, record);
  }

  /** The SDK's validateChannelConfig, its id hashed once per channel: the config is ours to be paid on. */
  private bindsTo({ channelConfig: config, voucher }: VoucherPayload, requirements: PaymentRequirements): boolean {
    const extra = requirements.extra as { receiverAuthorizer?: unknown; withdrawDelay?: unknown } | undefined;
    if (typeof extra?.receiverAuthorizer !== 'string' || extra.receiverAuthorizer.toLowerCase() === ZERO_ADDRESS) return false;
    if (extra.withdrawDelay === undefined || config.withdrawDelay !== Number(extra.withdrawDelay)) return false;
    const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
    if (!same(config.receiver, requirements.payTo) || !same(config.token, requirements.asset) || !same(config.receiverAuthorizer, extra.receiverAuthorizer)) return false;
    const id = voucher.channelId.toLowerCase();
    const fingerprint = `${config.payer}:${config.payerAuthorizer}:${config.receiver}:${config.receiverAuthorizer}:${config.token}:${config.withdrawDelay}:${config.salt}`.toLowerCase();
    if (this.bound.get(id) === fingerprint) return true;
    const computed = computeChannelId(config as Parameters<typeof computeChannelId>[0], requirements.network).toLowerCase();
    if (computed !== id) return false;
    if (this.bound.size >= MAX_BOUND_CHANNELS) this.bound.clear();
    this.bound.set(id, fingerprint);
    return true;
  }
}

/** What reserveVoucher's statement requires of the record, for a record read instead. */
function expects(record: Channel, cumulative: bigint, price: bigint, nowMs: number, syncedSinceMs: number): boolean {
  const pending = record.pendingRequest;
  return (!pending || pending.expiresAt <= nowMs)
    && BigInt(record.chargedCumulativeAmount) + price === cumulative
    && cumulative <= BigInt(record.balance) && cumulative > BigInt(record.totalClaimed)
    && record.withdrawRequestedAt === 0
    && record.onchainSyncedAt !== undefined && record.onchainSyncedAt >= syncedSinceMs;
}

function signatureProblem(reason: 'high_s' | 'bad_v' | 'unrecoverable'): string {
  if (reason === 'high_s') return 'the voucher signature has a high s, which the channel contract refuses (EIP-2); sign it again';
  if (reason === 'bad_v') return 'the voucher signature\'s v must be 27 or 28, as the channel contract recovers it';
  return 'the voucher signature must be 65 bytes (r, s, v) that recover to an address';
}
