// Paying by payment channel (x402 `batch-settlement`) with the official client scheme,
// @x402/evm's BatchSettlementEvmScheme: the first call deposits into the channel contract, later
// calls send cumulative vouchers. Its records live in the toolgate home (the SDK's
// FileClientChannelStorage), so the next process continues the same channel. The deposit is sized
// here (depositStrategy) and reserved against the session and daily budgets before it is signed;
// a deposit the budgets do not allow throws SpendRefused with nothing signed.
import { x402Client } from '@x402/core/client';
import type { Network, PaymentPayload, PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import { toClientEvmSigner, type ClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme, computeChannelId, readChannelBalanceAndTotalClaimed, signVoucher, type BatchSettlementClientContext, type BatchSettlementDepositStrategyContext } from '@x402/evm/batch-settlement/client';
import { FileClientChannelStorage } from '@x402/evm/batch-settlement/client/file-storage';
import type { LocalAccount } from 'viem';
import type { ChannelBook, ChannelConfigRecord } from './channel-book.ts';
import type { GatewayTool } from './gateway-tools.ts';
import type { Reservation, SpendLimits } from './spend-limits.ts';
import { SpendRefused } from './spend-refusal.ts';

export const BATCH_SETTLEMENT = 'batch-settlement';
/** The gateway is serving another request of this channel (one at a time per channel): wait and send again. */
export const CHANNEL_BUSY = 'invalid_batch_settlement_evm_channel_busy';
/** The voucher's cumulative amount is not the gateway's: its 402 carries the channel's state to resync from. */
const CORRECTIVE = ['invalid_batch_settlement_evm_cumulative_amount_mismatch', 'invalid_batch_settlement_evm_cumulative_below_claimed'];
/** Without an announced minimum, a deposit covers this many calls: its gas is then a small part of each price. */
export const DEFAULT_DEPOSIT_CALLS = 100n;

/** The reason code of a 402: toolgate writes `<code>: <message>`, the SDK compares bare codes. */
export const reasonCode = (paymentRequired: PaymentRequired): string => (paymentRequired.error ?? '').split(':')[0]!.trim();

export const isChannelBusy = (paymentRequired: PaymentRequired): boolean => reasonCode(paymentRequired) === CHANNEL_BUSY;
export const isCorrective = (paymentRequired: PaymentRequired): boolean => CORRECTIVE.includes(reasonCode(paymentRequired));
/** A voucher beyond what the channel holds on chain. */
export const isBeyondBalance = (paymentRequired: PaymentRequired): boolean => reasonCode(paymentRequired) === 'invalid_batch_settlement_evm_cumulative_exceeds_balance';
/**
 * A corrective 402 without the channel's state: the gateway holds no record of the channel (toolgate
 * answers so after refunding it, where the SDK says `…_cumulative_exceeds_balance`).
 */
export const isForgottenChannel = (paymentRequired: PaymentRequired): boolean =>
  isCorrective(paymentRequired) && !paymentRequired.accepts.some((a) => a.scheme === BATCH_SETTLEMENT && a.extra?.channelState !== undefined);

/** The gateway's channel offer on the network and asset its documents advertise for the tool. */
export function channelOffer(paymentRequired: PaymentRequired, tool: GatewayTool): PaymentRequirements | undefined {
  return paymentRequired.accepts.find((o) => o.scheme === BATCH_SETTLEMENT && o.network === tool.network && o.asset.toLowerCase() === tool.asset.toLowerCase());
}

export interface ChannelSigned {
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  channelId: string;
  /** Present when this payment deposits: the amount and its reservation against the budgets. */
  deposit?: { amount: bigint; reservation: Reservation };
}

/** Reads the channel contract (the SDK recovers a channel from the chain when its record is missing). */
export type ChainReader = NonNullable<Parameters<typeof toClientEvmSigner>[1]>;

export interface ChannelPayerOptions {
  /** Root of the SDK's file storage (records under <dir>/client/<channelId>.json). */
  storageDir: string;
  book: ChannelBook;
  limits: SpendLimits;
  /** The gateway's base URL, recorded with each channel. */
  gateway: string;
  /** Atomic USDC to deposit; at least the gateway's announced minDeposit. Default: that minDeposit, else 100 calls. */
  deposit?: bigint;
  /** A JSON-RPC reader for the channel contract, when one is known for the network. */
  reader?: (network: string) => Promise<ChainReader | undefined>;
}

export interface ChannelState {
  /** Charged so far (the cumulative amount of the latest accepted voucher). */
  charged: bigint;
  /** What the client believes is deposited in the channel. */
  balance: bigint;
  /** Claimed by the gateway on chain, when known. */
  claimed?: bigint;
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);

export class ChannelPayer {
  private readonly storage: FileClientChannelStorage;
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(readonly options: ChannelPayerOptions) {
    this.storage = new FileClientChannelStorage({ directory: options.storageDir });
  }

  private async signer(account: LocalAccount, network: string): Promise<ClientEvmSigner> {
    const reader = await this.options.reader?.(network).catch(() => undefined);
    return toClientEvmSigner(account, reader);
  }

  private scheme(signer: ClientEvmSigner, depositStrategy?: (context: BatchSettlementDepositStrategyContext) => Promise<string>): BatchSettlementEvmScheme {
    return new BatchSettlementEvmScheme(signer, { storage: this.storage, ...(depositStrategy ? { depositStrategy } : {}) });
  }

  /** The channel a payer pays into for this offer (the SDK's config: payer, receiver, token, authorizers, delay, salt 0). */
  channelConfig(account: LocalAccount, offer: PaymentRequirements): ChannelConfigRecord {
    return this.scheme(toClientEvmSigner(account)).buildChannelConfig(offer);
  }

  channelId(account: LocalAccount, offer: PaymentRequirements): string {
    return computeChannelId(this.scheme(toClientEvmSigner(account)).buildChannelConfig(offer), offer.network).toLowerCase();
  }

  async state(channelId: string): Promise<ChannelState | undefined> {
    const record: BatchSettlementClientContext | undefined = await this.storage.get(channelId);
    if (!record) return undefined;
    return {
      charged: BigInt(record.chargedCumulativeAmount ?? '0'),
      balance: BigInt(record.balance ?? '0'),
      ...(record.totalClaimed !== undefined ? { claimed: BigInt(record.totalClaimed) } : {}),
    };
  }

  /** Runs `work` once no other call of this process is in flight on the channel: the gateway serves one at a time. */
  exclusive<T>(channelId: string, work: () => Promise<T>): Promise<T> {
    const before = this.queues.get(channelId) ?? Promise.resolve();
    const run = before.then(work, work);
    const tail = run.then(() => undefined, () => undefined);
    this.queues.set(channelId, tail);
    void tail.then(() => {
      if (this.queues.get(channelId) === tail) this.queues.delete(channelId);
    });
    return run;
  }

  /** The deposit: the configured size (else the announced minDeposit, else 100 calls), never below what the gateway requires. */
  private depositSize(context: BatchSettlementDepositStrategyContext): bigint {
    const raw = context.paymentRequirements.extra?.minDeposit;
    const announced = typeof raw === 'string' && /^\d+$/.test(raw) ? BigInt(raw) : undefined;
    const wanted = this.options.deposit ?? announced ?? DEFAULT_DEPOSIT_CALLS * BigInt(context.requestAmount);
    return max(wanted, max(BigInt(context.minimumDepositAmount), announced ?? 0n));
  }

  /**
   * Signs this call's channel payment: a voucher for charged-so-far + the price, or, when the
   * channel has too little, a deposit (reserved against the budgets first) with the voucher.
   * Throws SpendRefused (nothing signed, nothing reserved) over the per-call cap or a budget.
   */
  async sign(paymentRequired: PaymentRequired, offer: PaymentRequirements, tool: GatewayTool, account: LocalAccount): Promise<ChannelSigned> {
    const { limits } = this.options;
    const perCall = limits.perCallCap(tool);
    if (BigInt(offer.amount) > perCall) throw new SpendRefused('per-call', tool.name, BigInt(offer.amount), perCall, 0n);
    const channelId = this.channelId(account, offer);
    let deposit: ChannelSigned['deposit'];
    const scheme = this.scheme(await this.signer(account, offer.network), async (context) => {
      const amount = this.depositSize(context);
      deposit = { amount, reservation: await limits.reserveDeposit(tool, amount, account.address, context.channelId.toLowerCase()) };
      return amount.toString();
    });
    const client = new x402Client();
    client.register(offer.network as Network, scheme);
    // The per-call cap is checked above on the price; a per-payment cap in the client's spend
    // controls would also cap the deposit (at 5 × the cap), so the controls only allow the asset.
    client.setSpendControls({ maxAmountPerPayment: false, allowedAssets: [{ network: offer.network as Network, asset: offer.asset }] });
    try {
      const payload = await client.createPaymentPayload({ ...paymentRequired, accepts: [offer] });
      return { payload, requirements: offer, channelId, ...(deposit ? { deposit } : {}) };
    } catch (error) {
      await deposit?.reservation.release();
      throw error;
    }
  }

  /** Dry run: what this call would do on the channel, with the caps checked; nothing signed or reserved. */
  async preview(offer: PaymentRequirements, tool: GatewayTool, account: LocalAccount): Promise<{ channelId: string; deposit?: bigint; state?: ChannelState }> {
    const perCall = this.options.limits.perCallCap(tool);
    if (BigInt(offer.amount) > perCall) throw new SpendRefused('per-call', tool.name, BigInt(offer.amount), perCall, 0n);
    const channelId = this.channelId(account, offer);
    const state = await this.state(channelId);
    const next = (state?.charged ?? 0n) + BigInt(offer.amount);
    if (state && state.balance > 0n && next <= state.balance) return { channelId, state };
    const deposit = this.depositSize({
      paymentRequirements: offer, requestAmount: offer.amount, minimumDepositAmount: (next - (state?.balance ?? 0n)).toString(),
    } as BatchSettlementDepositStrategyContext);
    await this.options.limits.checkDeposit(tool, deposit);
    return { channelId, deposit, ...(state ? { state } : {}) };
  }

  /** A settled channel payment: the client's record advances (x402Client.handlePaymentResponse), the budgets and the book follow. */
  async settled(signed: ChannelSigned, settlement: SettleResponse, tool: GatewayTool, account: LocalAccount): Promise<void> {
    await this.hooks(account, signed.requirements.network).handlePaymentResponse({ paymentPayload: signed.payload, requirements: signed.requirements, settleResponse: settlement });
    const { limits, book } = this.options;
    if (signed.deposit) {
      await signed.deposit.reservation.confirm(settlement.transaction);
      const config = this.channelConfig(account, signed.requirements);
      await book.deposited({ id: signed.channelId, gateway: this.options.gateway, network: signed.requirements.network, config }, signed.deposit.amount, settlement.transaction);
    } else {
      const charged = typeof settlement.extra?.chargedAmount === 'string' ? BigInt(settlement.extra.chargedAmount) : BigInt(signed.requirements.amount);
      await limits.voucher(tool, charged, account.address, signed.channelId);
    }
  }

  /** A corrective 402: the SDK resyncs the client's record from the gateway's signed state (or the chain). True when a new payment may be signed. */
  async resync(signed: ChannelSigned, paymentRequired: PaymentRequired, account: LocalAccount): Promise<boolean> {
    const bare: PaymentRequired = { ...paymentRequired, error: reasonCode(paymentRequired) };
    const outcome = await this.hooks(account, signed.requirements.network).handlePaymentResponse({ paymentPayload: signed.payload, requirements: signed.requirements, paymentRequired: bare });
    if (outcome?.recovered === true) return true;
    return this.resyncFromOwnVoucher(signed.channelId, bare, account);
  }

  /**
   * The SDK's recovery checks the gateway's state against the chain and gives up without a chain
   * reader. Without one, the gateway's latest voucher proves the base when it carries our own
   * signature (deterministic, RFC 6979: signing the same voucher again gives the same bytes) and
   * the charged total is within it: then the charged total becomes the client's base.
   */
  private async resyncFromOwnVoucher(channelId: string, paymentRequired: PaymentRequired, account: LocalAccount): Promise<boolean> {
    const accept = paymentRequired.accepts.find((a) => a.scheme === BATCH_SETTLEMENT);
    const channelState = accept?.extra?.channelState as { chargedCumulativeAmount?: string; balance?: string } | undefined;
    const voucherState = accept?.extra?.voucherState as { signedMaxClaimable?: string; signature?: string } | undefined;
    const charged = channelState?.chargedCumulativeAmount;
    const signedMax = voucherState?.signedMaxClaimable;
    if (!accept || !charged || !signedMax || !voucherState?.signature || !/^\d+$/.test(charged) || !/^\d+$/.test(signedMax)) return false;
    if (BigInt(charged) > BigInt(signedMax)) return false;
    const ours = await signVoucher(toClientEvmSigner(account), channelId as `0x${string}`, signedMax, accept.network);
    if (ours.signature.toLowerCase() !== voucherState.signature.toLowerCase()) return false;
    const previous = (await this.storage.get(channelId)) ?? {};
    await this.storage.set(channelId, {
      ...previous,
      chargedCumulativeAmount: charged,
      signedMaxClaimable: signedMax,
      signature: ours.signature,
      ...(previous.balance === undefined && channelState?.balance ? { balance: channelState.balance } : {}),
    });
    return true;
  }

  /** An x402Client whose only scheme is the channel scheme on this storage: for its payment-response hooks. */
  private hooks(account: LocalAccount, network: string): { handlePaymentResponse: x402Client['handlePaymentResponse'] } {
    let client: x402Client | undefined;
    return {
      handlePaymentResponse: async (context) => {
        client ??= new x402Client().register(network as Network, this.scheme(await this.signer(account, network)));
        return client.handlePaymentResponse(context);
      },
    };
  }

  /**
   * A cooperative refund request for the unspent part of a channel, as the SDK's refundChannel
   * builds it: a voucher for exactly what was charged (nothing new) and `type: "refund"`.
   */
  async refundPayload(paymentRequired: PaymentRequired, offer: PaymentRequirements, account: LocalAccount): Promise<PaymentPayload> {
    const config = this.scheme(toClientEvmSigner(account)).buildChannelConfig(offer);
    const channelId = computeChannelId(config, offer.network);
    const state = await this.state(channelId);
    const charged = (state?.charged ?? 0n).toString();
    const voucher = await signVoucher(toClientEvmSigner(account), channelId, charged, offer.network);
    return {
      x402Version: 2,
      accepted: offer,
      payload: { type: 'refund', channelConfig: config, voucher },
      ...(paymentRequired.resource ? { resource: paymentRequired.resource } : {}),
    };
  }

  /**
   * After a refund, the SDK's onPaymentResponse for refund payloads drops the client's record (full
   * refund). The channel stays on chain, holding exactly the charged total, which the refund claimed:
   * without a chain reader to rebuild the record, the next call would start again from 0 and be
   * refused (`…_cumulative_below_claimed`). So what stays is written back: the next call tops it up.
   */
  async refundSettled(payload: PaymentPayload, requirements: PaymentRequirements, settlement: SettleResponse, account: LocalAccount): Promise<void> {
    const channelId = (payload.payload as { voucher: { channelId: string } }).voucher.channelId.toLowerCase();
    const before = await this.storage.get(channelId);
    await this.hooks(account, requirements.network).handlePaymentResponse({ paymentPayload: payload, requirements, settleResponse: settlement });
    if (before && !(await this.storage.get(channelId))) {
      const charged = before.chargedCumulativeAmount ?? '0';
      await this.storage.set(channelId, { ...before, balance: charged, totalClaimed: charged });
    }
  }

  /**
   * A voucher refused as beyond the channel's balance although the client's record covers it: the
   * balance shrank behind this client's back, as when the gateway refunds a channel left idle (the
   * refund leaves exactly the charged total in it, claimed). The record takes the chain's balance
   * (without a chain reader: the charged total), so that the next payment tops the channel up.
   * Gives what left the channel (back to the payer), when a new payment may be signed.
   */
  async balanceShrank(signed: ChannelSigned, account: LocalAccount): Promise<bigint | undefined> {
    if (signed.deposit) return undefined;
    const record = await this.storage.get(signed.channelId);
    if (!record) return undefined;
    const charged = BigInt(record.chargedCumulativeAmount ?? '0');
    const needed = charged + BigInt(signed.requirements.amount);
    const believed = BigInt(record.balance ?? '0');
    if (believed < needed) return undefined;
    let onChain = { balance: charged, totalClaimed: BigInt(record.totalClaimed ?? '0') };
    const reader = await this.options.reader?.(signed.requirements.network).catch(() => undefined);
    if (reader) {
      const [balance, totalClaimed] = await readChannelBalanceAndTotalClaimed(toClientEvmSigner(account, reader), signed.channelId as `0x${string}`);
      onChain = { balance, totalClaimed };
    }
    if (onChain.balance >= needed) return undefined;
    await this.storage.set(signed.channelId, { ...record, balance: onChain.balance.toString(), totalClaimed: onChain.totalClaimed.toString() });
    return believed - onChain.balance;
  }

  /** Forget the client's record of a channel (its money came back by another way: the gateway's own refund, a withdrawal). */
  async forget(channelId: string): Promise<void> {
    await this.storage.delete(channelId);
  }
}
