// Watches the settlement contract for payers withdrawing from our channels. A payer may call
// `initiateWithdraw` at any time and `finalizeWithdraw` once the channel's withdraw delay has
// passed; whatever we have not claimed by then goes back to the payer, vouchers or not. So: every
// `pollMs`, the contract's WithdrawInitiated events since the last block seen are written into the
// channel records (`withdrawRequestedAt`, from which the storage computes the deadline), and every
// withdrawing channel with charges not yet claimed is claimed at once, not at the next collection.
//
// The last block seen is not stored: on start the watcher asks the chain (`pendingWithdrawals`)
// about every stored channel holding unclaimed charges — the only ones a withdrawal can cost us —
// and reads events from the head on. A WithdrawFinalized event clears the mark and the record's
// mirror of the chain, so the SDK verifies the channel's next voucher with the facilitator.
import { parseEventLogs } from 'viem';
import type { AbiEvent, Hex, Log, PublicClient } from 'viem';
import type { Channel, ChannelStorage } from '@x402/evm/batch-settlement/server';
import { BATCH_SETTLEMENT_ADDRESSES, batchSettlementAbi } from '../../../chain/batch-settlement-contracts.ts';
import type { Logger } from '../../../log.ts';
import type { SqlChannelClaims } from '../../channels/channel-claims.ts';
import type { ChannelCollector, CollectReport } from './channel-collector.ts';

/** RPC providers cap a getLogs range; a watcher that fell behind reads in steps of this many blocks. */
const MAX_LOG_RANGE = 2_000n;
/** More withdrawing channels than this at once are claimed over several polls (most urgent first). */
const MAX_URGENT = 500;

const WITHDRAW_EVENTS = batchSettlementAbi.filter(
  (item): item is AbiEvent => item.type === 'event' && (item.name === 'WithdrawInitiated' || item.name === 'WithdrawFinalized'),
);

export interface WithdrawalWatcherOptions {
  chain: Pick<PublicClient, 'getBlockNumber' | 'getLogs' | 'readContract'>;
  storage: Pick<ChannelStorage, 'updateChannel'>;
  claims: Pick<SqlChannelClaims, 'unclaimed'>;
  collector: Pick<ChannelCollector, 'collect'>;
  pollMs: number;
  log: Logger;
}

/** What one poll did: for tests and the log. */
export interface WatchReport {
  initiated: string[];
  finalized: string[];
  claim?: CollectReport;
}

export class WithdrawalWatcher {
  private nextBlock: bigint | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<WatchReport> | undefined;

  constructor(private readonly options: WithdrawalWatcherOptions) {}

  /** Each start asks the chain afresh about the stored channels, then follows events from the head. */
  start(): void {
    this.nextBlock = undefined;
    void this.poll();
    this.timer ??= setInterval(() => void this.poll(), this.options.pollMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }

  /** One poll now; a poll in flight is joined. Never throws: a failed poll is logged and retried next time. */
  poll(): Promise<WatchReport> {
    this.running ??= this.pass()
      .catch((error: unknown) => {
        this.options.log.error({ err: error }, 'withdrawal watch failed');
        return { initiated: [], finalized: [] };
      })
      .finally(() => {
        this.running = undefined;
      });
    return this.running;
  }

  private async pass(): Promise<WatchReport> {
    const { chain, claims, collector, log } = this.options;
    const report: WatchReport = { initiated: [], finalized: [] };
    const head = await chain.getBlockNumber();
    if (this.nextBlock === undefined) {
      report.initiated.push(...(await this.sweep()));
    } else {
      for (let from = this.nextBlock; from <= head; from += MAX_LOG_RANGE) {
        const to = from + MAX_LOG_RANGE - 1n < head ? from + MAX_LOG_RANGE - 1n : head;
        await this.apply(await chain.getLogs({ address: BATCH_SETTLEMENT_ADDRESSES.settlement, events: WITHDRAW_EVENTS, fromBlock: from, toBlock: to }), report);
      }
    }
    this.nextBlock = head + 1n;

    // Also channels marked before this poll (by an earlier poll, the SDK's verify or another
    // instance) that have been charged since their last claim.
    const urgent = (await claims.unclaimed(MAX_URGENT)).filter((channel) => channel.withdrawRequestedAt > 0);
    if (urgent.length > 0) {
      log.warn({ channels: urgent.map((c) => ({ id: c.channelId, deadline: c.withdrawRequestedAt + c.channelConfig.withdrawDelay })) }, 'payers are withdrawing: claiming their channels now');
      report.claim = await collector.collect(new Set(urgent.map((c) => c.channelId.toLowerCase())));
    }
    return report;
  }

  private async apply(logs: Log[], report: WatchReport): Promise<void> {
    for (const event of parseEventLogs({ abi: batchSettlementAbi, logs, eventName: ['WithdrawInitiated', 'WithdrawFinalized'] })) {
      const { eventName, args } = event as unknown as { eventName: string; args: { channelId: Hex; finalizeAfter?: number | bigint } };
      if (eventName === 'WithdrawInitiated') {
        const finalizeAfter = Number(args.finalizeAfter);
        if (await this.mark(args.channelId, (channel) => finalizeAfter - channel.channelConfig.withdrawDelay)) report.initiated.push(args.channelId);
      } else if (await this.clearFinalized(args.channelId)) {
        report.finalized.push(args.channelId);
      }
    }
  }

  /** At start: the withdrawals pending on chain for channels with something to lose. */
  private async sweep(): Promise<string[]> {
    const marked: string[] = [];
    for (const channel of await this.options.claims.unclaimed(MAX_URGENT)) {
      const [, initiatedAt] = (await this.options.chain.readContract({
        address: BATCH_SETTLEMENT_ADDRESSES.settlement, abi: batchSettlementAbi, functionName: 'pendingWithdrawals', args: [channel.channelId],
      })) as readonly [bigint, number | bigint];
      if (Number(initiatedAt) > 0 && (await this.mark(channel.channelId, () => Number(initiatedAt)))) marked.push(channel.channelId);
    }
    return marked;
  }

  /** Writes the withdrawal's start into a channel we hold; false for a channel not ours or already marked so. */
  private async mark(channelId: string, requestedAt: (channel: Channel) => number): Promise<boolean> {
    let changed = false;
    await this.options.storage.updateChannel(channelId, (current) => {
      if (!current || current.withdrawRequestedAt === requestedAt(current)) return current;
      changed = true;
      return { ...current, withdrawRequestedAt: requestedAt(current) };
    });
    return changed;
  }

  /** The payer took its money: the record's balance is stale, so the SDK must ask the chain again. */
  private async clearFinalized(channelId: string): Promise<boolean> {
    let changed = false;
    await this.options.storage.updateChannel(channelId, (current) => {
      if (!current) return current;
      changed = true;
      return { ...current, withdrawRequestedAt: 0, onchainSyncedAt: undefined };
    });
    return changed;
  }
}
