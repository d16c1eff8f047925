// Gives idle payers their money back: a channel with no request for TOOLGATE_CHANNEL_IDLE_REFUND_S
// that still holds more than its calls were charged is refunded cooperatively by the SDK's channel
// manager (`refund([id])`: the receiver authorizer signs the refund of balance − charged, with a
// claim of the latest voucher in the same transaction when it is not claimed yet). Run by the
// instance holding the claim-sender lock, one channel at a time so that one failing refund never
// holds back the others, each believed by its `Refunded` event. The claimed part is moved to payTo
// by the collector's next settle (it settles whatever the chain holds claimed for us).
import type { BatchSettlementChannelManager, Channel, ChannelStorage } from '@x402/evm/batch-settlement/server';
import type { Logger } from '../../../log.ts';
import type { ClaimSenderLock } from '../../channels/claim-sender-lock.ts';
import type { ReceiptReader } from './channel-collector.ts';
import type { RefundEvent } from './payer-refund.ts';
import { readRefundReceipt } from './refund-receipt.ts';

export interface IdleRefundsOptions {
  manager: Pick<BatchSettlementChannelManager, 'refund'>;
  storage: Pick<ChannelStorage, 'list'>;
  receipts: ReceiptReader;
  receiptTimeoutMs: number;
  /** A channel idle this long (no request) is refunded; above zero. */
  idleSeconds: number;
  lock?: ClaimSenderLock;
  log: Logger;
  now?: () => number;
}

export interface IdleRefundReport {
  refunded: { channelId: string; transaction: string; amount: bigint }[];
  failures: string[];
}

export class IdleRefunds {
  /** Told of every refund proven by its event (the metrics). */
  onRefund: ((event: RefundEvent) => void) | undefined;
  /** Told of every channel whose refund failed or could not be proven. */
  onFailure: ((channelId: string) => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<IdleRefundReport> | undefined;
  private readonly now: () => number;

  constructor(private readonly options: IdleRefundsOptions) {
    if (!(options.idleSeconds > 0)) throw new Error('idle refunds need an idle time above zero');
    this.now = options.now ?? Date.now;
  }

  /** Looks every tenth of the idle time (between 1 s and 1 h), so a channel waits at most ~10 % past it. */
  get intervalMs(): number {
    return Math.min(3_600_000, Math.max(1_000, Math.floor((this.options.idleSeconds * 1000) / 10)));
  }

  start(): void {
    this.timer ??= setInterval(() => void this.refundIdle(), this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
  }

  /** One pass now; a pass already running is joined. Skipped (nothing done) while another instance sends. */
  refundIdle(): Promise<IdleRefundReport> {
    this.running ??= this.pass().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(): Promise<IdleRefundReport> {
    if (!this.options.lock) return this.passHeld();
    const turn = await this.options.lock.tryHold(() => this.passHeld());
    return turn.held ? turn.value : { refunded: [], failures: [] };
  }

  private async passHeld(): Promise<IdleRefundReport> {
    const report: IdleRefundReport = { refunded: [], failures: [] };
    const { log } = this.options;
    let idle: Channel[];
    try {
      idle = idleChannels(await this.options.storage.list(), this.now(), this.options.idleSeconds * 1000);
    } catch (error) {
      report.failures.push(`list: ${messageOf(error)}`);
      log.error({ failures: report.failures }, 'idle channel refunds failed');
      return report;
    }
    for (const channel of idle) {
      const channelId = channel.channelId.toLowerCase();
      try {
        // The manager skips a channel whose request is in flight by now (it lists again): no result.
        const [result] = await this.options.manager.refund([channelId]);
        if (!result) continue;
        const receipt = await readRefundReceipt(this.options.receipts, result.transaction, channelId, this.options.receiptTimeoutMs);
        if (receipt.problem !== undefined) throw new Error(receipt.problem);
        report.refunded.push({ channelId, transaction: result.transaction, amount: receipt.refunded });
        this.onRefund?.({ trigger: 'idle', channelId, transaction: result.transaction, receipt });
        log.info({ channelId, refunded: receipt.refunded.toString(), claimed: receipt.claimed.toString(), tx: result.transaction, idleSeconds: Math.round((this.now() - channel.lastRequestTimestamp) / 1000) }, 'idle channel refunded');
      } catch (error) {
        report.failures.push(`refund ${channelId}: ${messageOf(error)}`);
        this.onFailure?.(channelId);
      }
    }
    if (report.failures.length > 0) log.error({ failures: report.failures }, 'idle channel refunds failed');
    return report;
  }
}

/** Channels with no request for `idleMs`, none in flight, holding more than their calls were charged. */
export function idleChannels(channels: readonly Channel[], now: number, idleMs: number): Channel[] {
  return channels.filter((c) =>
    BigInt(c.balance) > BigInt(c.chargedCumulativeAmount)
    && !(c.pendingRequest && c.pendingRequest.expiresAt > now)
    && now - c.lastRequestTimestamp >= idleMs);
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
