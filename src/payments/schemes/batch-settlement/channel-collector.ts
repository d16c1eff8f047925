// Collects what payment channels owe us: the SDK's channel manager claims the latest voucher of
// every channel charged past its claimed total (claimWithSignature, accounting only), then settles
// (the USDC moves to payTo), on an interval and once more at shutdown. The facilitator reports a
// claim's success on the receipt's status alone and a settle's even when its `Settled` event is
// missing (docs/payment-channels.md, surprise 3), so each receipt is read here for its event.
import type { Hex, TransactionReceipt } from 'viem';
import type { BatchSettlementChannelManager, Channel } from '@x402/evm/batch-settlement/server';
import { settlementEventArgs } from '../../../chain/batch-settlement-contracts.ts';
import type { Logger } from '../../../log.ts';
import type { ClaimSenderLock } from '../../channels/claim-sender-lock.ts';
import type { CollectionTransaction } from '../../ledger/channel-payments.ts';
import { dueForClaim } from './claim-policy.ts';
import type { ClaimPolicy } from './claim-policy.ts';

/** The payment ledger's side of collection (ledger/channel-payments.ts). */
export interface CollectionLedger {
  /** The ledger's clock, read before a settle is sent. */
  clock(): Promise<string>;
  /** A settle sent at `sentAt` (by `clock`) confirmed: the rows claimed by then are collected. */
  settled(sentAt: string): Promise<unknown>;
  /** Each claim and settle transaction with its gas. */
  recordCollection(transactions: readonly CollectionTransaction[]): Promise<void>;
  /** Holds the pass's claims back from the rows, so each row changes state once (ledger/held-claims.ts); undefined: marked at once. */
  holdClaims?(): HeldClaimMarks | undefined;
  /** Rows left behind their channel's claimed total by a pass that died holding claims: claimed. */
  claimBehind?(): Promise<unknown>;
}

/** A pass's held claims (ledger/held-claims.ts's HeldClaims). */
export interface HeldClaimMarks {
  /** The claims held so far, taken out: those a settle about to be sent covers. */
  take(): ReadonlyMap<string, bigint>;
  /** That settle confirmed: the rows of the taken claims go straight to settled. */
  settled(taken: ReadonlyMap<string, bigint>): Promise<unknown>;
  /** Ends the hold: what is still held, and `untaken`, is marked claimed. */
  release(untaken?: ReadonlyMap<string, bigint>): Promise<void>;
}

export interface ReceiptReader {
  waitForTransactionReceipt(args: { hash: Hex; timeout?: number }): Promise<TransactionReceipt>;
}

type Manager = Pick<BatchSettlementChannelManager, 'claim' | 'settle'>;

export interface ChannelCollectorOptions {
  manager: Manager;
  receipts: ReceiptReader;
  intervalMs: number;
  /** Which channels the interval's passes claim; without it, every channel owing anything. */
  policy?: ClaimPolicy;
  receiptTimeoutMs: number;
  /** Instances sharing the channels take turns: a pass that finds another sending skips (claim batches are all-or-nothing). */
  lock?: ClaimSenderLock;
  /**
   * What the chain holds claimed for payTo and not yet settled (the contract's `receivers`). A pass
   * that claims nothing settles when this is above zero: a claim whose settle was cut off (a crash,
   * another instance, a failed settle) is then settled by the next pass, not only after a new claim.
   */
  owed?: () => Promise<bigint>;
  ledger?: CollectionLedger;
  log: Logger;
}

/** One pass: what was claimed and settled (atomic USDC, from the events), and what went wrong. */
export interface CollectReport {
  claimedVouchers: number;
  claimed: bigint;
  settled: bigint;
  settleTransaction?: string;
  /** Gas of this pass's claim and settle transactions, and what it cost (gas × effective price). */
  gas: bigint;
  feeWei: bigint;
  /** Each claim and settle transaction of the pass, with what it moved and cost. */
  transactions: CollectionTransaction[];
  failures: string[];
}

const emptyReport = (): CollectReport => ({ claimedVouchers: 0, claimed: 0n, settled: 0n, gas: 0n, feeWei: 0n, transactions: [], failures: [] });

export class ChannelCollector {
  /** Passes whose claim or settle failed or could not be proven by its event, since start. */
  failures = 0;
  /** Told of every pass this instance ran (the metrics). */
  onCollect: ((report: CollectReport) => void) | undefined;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<CollectReport> | undefined;
  /** A claim went through and no settle has since: settle even if this pass claims nothing. */
  private unsettled = false;

  constructor(private readonly options: ChannelCollectorOptions) {}

  start(): void {
    this.timer ??= setInterval(() => void this.collectDue(), this.options.intervalMs);
    this.timer.unref();
  }

  /** Stops the interval and collects once more, after any pass in flight. */
  async stop(): Promise<CollectReport> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.running?.catch(() => undefined);
    return this.collect();
  }

  /**
   * Claims and settles now; a pass already running is joined rather than doubled. `only` (lowercase
   * channel ids) limits the claim to those channels: the withdrawal watcher's urgent claims.
   */
  collect(only?: ReadonlySet<string>): Promise<CollectReport> {
    return this.join(only ? (c) => only.has(c.channelId.toLowerCase()) : () => true);
  }

  /** The interval's pass: the channels the claim policy says are due (claim-policy.ts), and a settle of what is owed. */
  collectDue(nowMs = Date.now()): Promise<CollectReport> {
    const { policy } = this.options;
    if (!policy) return this.collect();
    return this.join((c) => dueForClaim(c, policy, nowMs));
  }

  private join(claimable: (channel: Channel) => boolean): Promise<CollectReport> {
    this.running ??= this.pass(claimable).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  private async pass(claimable: (channel: Channel) => boolean): Promise<CollectReport> {
    if (!this.options.lock) return this.passHeld(claimable);
    const turn = await this.options.lock.tryHold(() => this.passHeld(claimable));
    return turn.held ? turn.value : emptyReport();
  }

  private async passHeld(claimable: (channel: Channel) => boolean): Promise<CollectReport> {
    const { ledger, log } = this.options;
    await ledger?.claimBehind?.().catch((error: unknown) => log.warn({ err: error }, 'rows behind their channel\'s claimed total could not be marked claimed'));
    const held = ledger?.holdClaims?.();
    const state: { untaken?: ReadonlyMap<string, bigint> } = {};
    try {
      return await this.claimAndSettle(claimable, held, state);
    } finally {
      await held?.release(state.untaken).catch((error: unknown) => log.warn({ err: error }, 'claimed channel calls could not be marked in the ledger'));
    }
  }

  /** The pass under the claim-sender lock; `state.untaken`: claims taken for a settle that did not confirm. */
  private async claimAndSettle(claimable: (channel: Channel) => boolean, held: HeldClaimMarks | undefined, state: { untaken?: ReadonlyMap<string, bigint> }): Promise<CollectReport> {
    const report = emptyReport();
    const { manager, log } = this.options;
    let listed: Channel[] = [];
    try {
      await this.claimChecked((channels) => (listed = withdrawingFirst(channels.filter(claimable))), report);
    } catch (error) {
      report.failures.push(`claim: ${messageOf(error)}`);
      // A claim batch is all-or-nothing: one channel whose claim reverts (a voucher beyond what the
      // channel now holds) would hold back every other channel, pass after pass, until withdrawals
      // take their money. Claim them one by one instead; the bad one fails alone.
      for (const channel of listed.filter((c) => BigInt(c.chargedCumulativeAmount) > BigInt(c.totalClaimed))) {
        const id = channel.channelId.toLowerCase();
        try {
          await this.claimChecked((channels) => channels.filter((c) => c.channelId.toLowerCase() === id), report);
        } catch (alone) {
          report.failures.push(`claim ${id}: ${messageOf(alone)}`);
        }
      }
    }
    if (this.unsettled || (await this.owedNow(report)) > 0n) {
      try {
        const sentAt = await this.options.ledger?.clock().catch((error: unknown) => log.warn({ err: error }, 'the ledger\'s clock could not be read; settled calls are marked at the next settle'));
        state.untaken = held?.take();
        const { transaction } = await manager.settle();
        report.settleTransaction = transaction;
        const amounts = await this.eventAmounts(transaction, 'Settled', 'amount', report);
        if (amounts.length === 0) report.failures.push(`settle ${transaction}: no Settled event`);
        else {
          report.settled = amounts.reduce((sum, amount) => sum + amount, 0n);
          this.unsettled = false;
          // Under the claim-sender lock still: no other instance's claim can slip in before the rows are marked.
          if (sentAt) await this.options.ledger?.settled(sentAt).catch((error: unknown) => log.warn({ err: error }, 'settled channel calls could not be marked in the ledger'));
          if (held && state.untaken) {
            const taken = state.untaken;
            if (await held.settled(taken).then(() => true, (error: unknown) => (log.warn({ err: error }, 'settled channel calls could not be marked in the ledger'), false))) delete state.untaken;
          }
        }
      } catch (error) {
        report.failures.push(`settle: ${messageOf(error)}`);
      }
    }
    await this.options.ledger?.recordCollection(report.transactions).catch((error: unknown) => log.warn({ err: error }, 'channel collection costs could not be recorded'));
    this.onCollect?.(report);
    if (report.failures.length > 0) {
      this.failures += 1;
      log.error({ failures: report.failures }, 'channel collection failed');
    } else if (report.claimedVouchers > 0 || report.settled > 0n) {
      log.info({ vouchers: report.claimedVouchers, claimed: report.claimed.toString(), settled: report.settled.toString(), tx: report.settleTransaction }, 'channels collected');
    }
    return report;
  }

  /** The manager's claim of the channels `select` keeps, each transaction believed by its Claimed events only. */
  private async claimChecked(select: (channels: Channel[]) => Channel[], report: CollectReport): Promise<void> {
    for (const claim of await this.options.manager.claim({ selectClaimChannels: select })) {
      const amounts = await this.eventAmounts(claim.transaction, 'Claimed', 'claimAmount', report);
      if (amounts.length === 0) {
        report.failures.push(`claim ${claim.transaction}: no Claimed event`);
        continue;
      }
      report.claimedVouchers += claim.vouchers;
      report.claimed += amounts.reduce((sum, amount) => sum + amount, 0n);
      this.unsettled = true;
    }
  }

  private async owedNow(report: CollectReport): Promise<bigint> {
    try {
      return (await this.options.owed?.()) ?? 0n;
    } catch (error) {
      report.failures.push(`owed: ${messageOf(error)}`);
      return 0n;
    }
  }

  /** The amounts of the settlement contract's events of one name in a transaction's receipt (none if it failed). */
  private async eventAmounts(transaction: string, eventName: 'Claimed' | 'Settled', field: string, report: CollectReport): Promise<bigint[]> {
    const receipt = await this.options.receipts.waitForTransactionReceipt({ hash: transaction as Hex, timeout: this.options.receiptTimeoutMs });
    const feeWei = receipt.gasUsed * (receipt.effectiveGasPrice ?? 0n);
    report.gas += receipt.gasUsed;
    report.feeWei += feeWei;
    const amounts = receipt.status !== 'success' ? [] : settlementEventArgs(receipt, eventName)
      .map((args) => args[field])
      .filter((amount): amount is bigint => typeof amount === 'bigint');
    const step = eventName === 'Claimed' ? 'claim' : 'settle';
    report.transactions.push({ step, hash: transaction, amount: amounts.reduce((sum, amount) => sum + amount, 0n), gas: receipt.gasUsed, feeWei });
    return amounts;
  }
}

/** Claim batches go in list order: a channel whose payer is withdrawing goes first, nearest deadline first. */
function withdrawingFirst(channels: Channel[]): Channel[] {
  const deadline = (c: Channel) => (c.withdrawRequestedAt > 0 ? c.withdrawRequestedAt + c.channelConfig.withdrawDelay : Number.POSITIVE_INFINITY);
  return [...channels].sort((a, b) => (deadline(a) === deadline(b) ? 0 : deadline(a) < deadline(b) ? -1 : 1));
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));
