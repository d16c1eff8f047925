// The embedded settlement engine for `exact` payments: batches of EIP-3009 transfers (not x402's
// `batch-settlement` scheme, which is payment channels). Payments whose results are ready queue here;
// a settler key that has nothing in flight takes the queue at once (a call on a quiet gateway waits
// for no company), a busy one lets it grow until the batch window closes or the batch is full. A
// batch is simulated first (a payment that would fail is refused alone, without gas), sent as one
// transaction (one transferWithAuthorization, or Multicall3 aggregate3 for several), and each
// payment's outcome is read from USDC's AuthorizationUsed events in the receipt, never assumed.
// A payer whose address holds code decides by that code whether USDC accepts its signature, and
// can answer differently in a simulation than on chain: its payments never share a transaction,
// and are answered only from their receipt, whatever the mode (docs/payments.md, contract wallets).
import { createPublicClient, getAddress, http, size } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import type { SettleResponse } from '@x402/core/types';
import { viemChain } from '../../chain/viem-chain.ts';
import type { Logger } from '../../log.ts';
import { SETTLEMENT_PENDING } from '../facilitator/facilitator.ts';
import { reasonOfRevert, settleErrorReason } from '../facilitator/revert-reasons.ts';
import type { PaymentLedger, SettlementOutcome } from '../ledger/payment-ledger.ts';
import type { PaymentNetwork } from '../networks.ts';
import {
  aggregate3Calldata, authorizationsUsed, batchGasLimit, decodeAggregate3, keyOf, transferCalldata,
} from './settlement-calls.ts';
import { CONTRACT_PAYERS_PAUSED } from './settlement.ts';
import type { Settlement, SettlementMode, SettlementRequest } from './settlement.ts';
import { SettlerAccount, sendMayHaveLanded } from './settler-account.ts';
import type { SettlementTransaction, TransactionOutcome } from './settler-account.ts';
import type { SettlerKeyLock } from './settler-key-lock.ts';

export interface BatchedTransferOptions {
  network: PaymentNetwork;
  rpcUrl: string;
  settlerKeys: readonly Hex[];
  multicall3: Address;
  ledger: PaymentLedger;
  log: Logger;
  mode: SettlementMode;
  /** How long a payment may wait for company while every settler key is busy. */
  batchWindowMs: number;
  maxBatchSize: number;
  confirmations: number;
  receiptTimeoutMs: number;
  replaceAfterMs: number;
  pollingIntervalMs: number;
  /** With a shared database: settler keys other instances may also use. */
  keyLock?: SettlerKeyLock;
  /**
   * Whether a contract payer's settlement may be sent now (the hour's budget of on-chain failures
   * has room), and who to tell when a settlement whose result was already delivered (submitted
   * mode) failed on chain; the gate hears of every other failure in the answer.
   */
  chainFailures?: { budgetLeft(): boolean; failedOnChain(payer: string): void };
}


interface Queued {
  request: SettlementRequest;
  /**
   * Whether the payer's address holds code, read when the payment joined the queue, so the read
   * overlaps the wait for a settler key instead of adding a round trip to every batch.
   */
  payerHasCode: Promise<boolean>;
  answer(response: SettleResponse): void;
  answered: boolean;
  /** The answer decided for this payment, delivered once its outcome is in the ledger. */
  staged?: SettleResponse;
}

/** Decides a payment's answer; the first decision stands. */
function stage(q: Queued, response: SettleResponse): void {
  q.staged ??= response;
}

/** What a batch's figures say about each settled payment, for the ledger and the dashboard. */
export interface BatchReport {
  settler: Address;
  size: number;
  transaction?: Hex;
  gasUsed?: bigint;
  settled: number;
  failed: number;
  /** From leaving the queue to the outcome. */
  durationMs: number;
}

export class BatchedTransferSettlement implements Settlement {
  readonly mode: SettlementMode;
  readonly marksSettling = true;
  readonly accounts: SettlerAccount[];
  private readonly client: PublicClient;
  /** getCode of a batch's payers goes out as one JSON-RPC batch. */
  private readonly codeClient: PublicClient;
  private queue: Queued[] = [];
  private windowTimer: NodeJS.Timeout | undefined;
  private flushQueued = false;
  private draining = false;
  private readonly running = new Set<Promise<void>>();
  private inFlightPayments = 0;
  /** Called after each batch (metrics, tests). */
  onBatch: ((report: BatchReport) => void) | undefined;

  /** Payments waiting for a transaction, and payments in transactions awaiting their outcome. */
  depth(): { queued: number; inFlight: number } {
    return { queued: this.queue.length, inFlight: this.inFlightPayments };
  }

  constructor(private readonly options: BatchedTransferOptions) {
    if (options.settlerKeys.length === 0) throw new Error('the settlement engine needs at least one settler key');
    this.mode = options.mode;
    const chain = viemChain(options.network, options.rpcUrl);
    this.client = createPublicClient({ chain, transport: http(options.rpcUrl, { retryCount: 0 }), pollingInterval: options.pollingIntervalMs });
    this.codeClient = createPublicClient({ chain, transport: http(options.rpcUrl, { retryCount: 0, batch: { batchSize: 300, wait: 0 } }) });
    this.accounts = options.settlerKeys.map((key) => new SettlerAccount({
      chain, client: this.client, key,
      pollingIntervalMs: options.pollingIntervalMs, receiptTimeoutMs: options.receiptTimeoutMs,
      replaceAfterMs: options.replaceAfterMs, confirmations: options.confirmations,
      ...(options.keyLock ? { keyLock: options.keyLock } : {}),
    }));
  }

  settle(request: SettlementRequest): Promise<SettleResponse> {
    if (this.draining) {
      return Promise.resolve(this.failure(request, 'unexpected_settle_error', 'the gateway is shutting down; nothing was charged'));
    }
    return new Promise<SettleResponse>((resolve) => {
      const queued: Queued = {
        request,
        payerHasCode: this.payerHasCode(request),
        answered: false,
        answer: (response) => {
          if (queued.answered) return;
          queued.answered = true;
          resolve(response);
        },
      };
      this.queue.push(queued);
      this.schedule();
    });
  }

  async drain(timeoutMs: number): Promise<void> {
    this.draining = true;
    this.flush(true);
    const deadline = new Promise((resolve) => setTimeout(resolve, timeoutMs).unref());
    await Promise.race([Promise.allSettled([...this.running]), deadline]);
  }

  private schedule(): void {
    if (this.queue.length === 0) return;
    if (this.queue.length >= this.options.maxBatchSize || this.idleAccount()) {
      // Next turn of the event loop: payments that arrive together leave together.
      if (!this.flushQueued) {
        this.flushQueued = true;
        setImmediate(() => {
          this.flushQueued = false;
          this.flush(false);
        });
      }
      return;
    }
    this.windowTimer ??= setTimeout(() => {
      this.windowTimer = undefined;
      this.flush(true);
    }, this.options.batchWindowMs);
  }

  /** Hands the queue to idle keys; `force` (the window closed) sends on a busy key too. */
  private flush(force: boolean): void {
    while (this.queue.length > 0) {
      const full = this.queue.length >= this.options.maxBatchSize;
      const account = this.idleAccount() ?? (force || full ? this.leastBusyAccount() : undefined);
      if (!account) break;
      const batch = this.queue.splice(0, this.options.maxBatchSize);
      account.inFlight += 1;
      const run = this.run(account, batch).finally(() => {
        account.inFlight -= 1;
        this.running.delete(run);
        this.schedule();
      });
      this.running.add(run);
    }
    if (this.queue.length === 0 && this.windowTimer) {
      clearTimeout(this.windowTimer);
      this.windowTimer = undefined;
    }
    if (this.queue.length > 0) this.schedule();
  }

  private idleAccount(): SettlerAccount | undefined {
    return this.accounts.find((a) => a.inFlight === 0);
  }

  private leastBusyAccount(): SettlerAccount {
    return this.accounts.reduce((best, a) => (a.inFlight < best.inFlight ? a : best));
  }

  private async run(account: SettlerAccount, batch: Queued[]): Promise<void> {
    let contracts: Set<string>;
    try {
      contracts = await this.payersWithCode(batch);
    } catch (error) {
      const { message } = settleErrorReason(error);
      const outcomes = batch.map((q) => ({ id: q.request.paymentId, state: 'failed' as const, error: `unexpected_settle_error: the payers' code could not be read: ${message}` }));
      await this.recordOutcomes(outcomes);
      for (const q of batch) q.answer(this.failure(q.request, 'unexpected_settle_error', `the settlement could not be prepared: ${message}`));
      return;
    }
    const isContract = (q: Queued) => contracts.has(q.request.authorization.authorization.from.toLowerCase());
    const plain = batch.filter((q) => !isContract(q));
    if (plain.length > 0) await this.settleGroup(account, plain, this.mode, false);
    for (const q of batch.filter(isContract)) {
      if (this.options.chainFailures && !this.options.chainFailures.budgetLeft()) {
        const message = 'settlements from contract wallets are paused: this hour\'s budget of failed on-chain settlements is spent; nothing was charged';
        await this.recordOutcomes([{ id: q.request.paymentId, state: 'failed', error: `${CONTRACT_PAYERS_PAUSED}: ${message}` }]);
        q.answer(this.failure(q.request, CONTRACT_PAYERS_PAUSED, message));
        continue;
      }
      await this.settleGroup(account, [q], 'confirmed', true);
    }
  }

  /**
   * A payer whose address holds code (a contract wallet, an EIP-7702 delegation), read when its
   * payment is queued: an address can gain code at any time, so it is never taken from a cache. A
   * signature that is not 65 bytes counts as a contract payer's whatever the chain says. Reads of
   * payments queued together go out as one JSON-RPC batch.
   */
  private payerHasCode({ authorization: { authorization, signature } }: SettlementRequest): Promise<boolean> {
    if (size(signature) !== 65) return Promise.resolve(true);
    const read = this.codeClient.getCode({ address: authorization.from }).then((code) => code !== undefined && code !== '0x');
    read.catch(() => undefined); // awaited, and its failure handled, when the batch leaves
    return read;
  }

  /** The payers of a batch that hold code. */
  private async payersWithCode(batch: readonly Queued[]): Promise<Set<string>> {
    const flags = await Promise.all(batch.map((q) => q.payerHasCode));
    return new Set(batch.filter((_, i) => flags[i]).map((q) => q.request.authorization.authorization.from.toLowerCase()));
  }

  private async settleGroup(account: SettlerAccount, batch: Queued[], mode: SettlementMode, contractPayer: boolean): Promise<void> {
    const started = performance.now();
    this.inFlightPayments += batch.length;
    const report: BatchReport = { settler: account.address, size: batch.length, settled: 0, failed: 0, durationMs: 0 };
    const outcomes: SettlementOutcome[] = [];
    let sent = false;
    try {
      const { live, transaction } = await this.simulate(account, batch, outcomes, contractPayer);
      if (!transaction) return;
      const ids = live.map((q) => q.request.paymentId);
      const record = (hash: Hex) => this.options.ledger.recordSubmission(ids, { txHash: hash, settler: account.address, batchSize: live.length });
      let submitted;
      try {
        submitted = await account.submit(transaction, record);
        sent = true;
      } catch (error) {
        const landed = sendMayHaveLanded(error);
        const { message } = settleErrorReason(error);
        const reason = landed ? SETTLEMENT_PENDING : 'unexpected_settle_error';
        for (const q of live) {
          outcomes.push({ id: q.request.paymentId, state: landed ? 'pending' : 'failed', error: `${reason}: the settlement transaction may not have been sent: ${message}` });
          stage(q, this.failure(q.request, reason, `the settlement transaction could not be sent: ${message}`));
        }
        return;
      }
      report.transaction = submitted.hash;
      if (mode === 'submitted') {
        for (const q of live) q.answer(this.success(q.request, submitted.hash)); // before the receipt, by design
      }
      const outcome = await account.outcome(submitted, record);
      this.readOutcome(outcome, live, outcomes, report);
    } catch (error) {
      this.options.log.error({ err: error, settler: account.address }, 'settlement batch failed');
      for (const q of batch) {
        if (outcomes.some((o) => o.id === q.request.paymentId)) continue;
        outcomes.push({ id: q.request.paymentId, state: sent ? 'pending' : 'failed', error: `${sent ? SETTLEMENT_PENDING : 'unexpected_settle_error'}: settlement interrupted: ${String(error)}` });
        stage(q, this.failure(q.request, sent ? SETTLEMENT_PENDING : 'unexpected_settle_error', 'the settlement could not complete'));
      }
    } finally {
      await this.recordOutcomes(outcomes);
      report.settled = outcomes.filter((o) => o.state === 'settled').length;
      report.failed = outcomes.filter((o) => o.state === 'failed').length;
      report.durationMs = performance.now() - started;
      this.inFlightPayments -= batch.length;
      this.onBatch?.(report);
      // Answers leave after their outcomes were written (or, if the write failed, left to reconciliation).
      for (const q of batch) q.answer(q.staged ?? this.failure(q.request, SETTLEMENT_PENDING, 'the settlement outcome is not known yet'));
    }
  }

  /**
   * One eth_call (of aggregate3, or of USDC itself for a single payment) tells which payments would
   * settle; the others are refused now, alone, without spending gas. Returns the transaction for the rest.
   */
  private async simulate(
    account: SettlerAccount,
    batch: Queued[],
    outcomes: SettlementOutcome[],
    contractPayer: boolean,
  ): Promise<{ live: Queued[]; transaction?: SettlementTransaction }> {
    const refuse = (q: Queued, reason: string, message: string) => {
      outcomes.push({ id: q.request.paymentId, state: 'failed', error: `${reason}: ${message}` });
      stage(q, this.failure(q.request, reason, message));
    };
    if (batch.length === 1) return this.single(account, batch[0]!, refuse, contractPayer);
    let results: ReturnType<typeof decodeAggregate3>;
    const all = batch.map((q) => q.request.authorization);
    try {
      const { data } = await this.client.call({
        account: account.address, to: this.options.multicall3, data: aggregate3Calldata(this.asset, all), gas: batchGasLimit(all),
      });
      results = decodeAggregate3(data ?? '0x');
    } catch (error) {
      const { message } = settleErrorReason(error);
      for (const q of batch) refuse(q, 'unexpected_settle_error', `the settlement could not be simulated: ${message}`);
      return { live: [] };
    }
    const live = batch.filter((q, i) => {
      const result = results[i];
      if (result?.success) return true;
      const why = result?.reason ?? 'no result';
      refuse(q, reasonOfRevert(why), `USDC refuses this authorization: ${why}`);
      return false;
    });
    if (live.length === 0) return { live };
    if (live.length === 1) return this.single(account, live[0]!, refuse, false);
    const authorizations = live.map((q) => q.request.authorization);
    return { live, transaction: { to: this.options.multicall3, data: aggregate3Calldata(this.asset, authorizations), gas: batchGasLimit(authorizations) } };
  }

  /**
   * A single payment goes straight to USDC (aggregate3 would add ~6k gas), simulated by one eth_call
   * at the gas limit it will be sent with (an estimate would run it several times over).
   */
  private async single(
    account: SettlerAccount,
    q: Queued,
    refuse: (q: Queued, reason: string, message: string) => void,
    contractPayer: boolean,
  ): Promise<{ live: Queued[]; transaction?: SettlementTransaction }> {
    const data = transferCalldata(q.request.authorization);
    const gas = batchGasLimit([q.request.authorization], contractPayer);
    try {
      await this.client.call({ account: account.address, to: this.asset, data, gas });
      return { live: [q], transaction: { to: this.asset, data, gas } };
    } catch (error) {
      const { reason, message } = settleErrorReason(error);
      refuse(q, reason, message);
      return { live: [] };
    }
  }

  private readOutcome(outcome: TransactionOutcome, live: Queued[], outcomes: SettlementOutcome[], report: BatchReport): void {
    if (outcome.kind === 'timeout') {
      const hash = outcome.hashes.at(-1)!;
      for (const q of live) {
        outcomes.push({ id: q.request.paymentId, state: 'pending', txHash: hash, error: `${SETTLEMENT_PENDING}: no receipt within ${this.options.receiptTimeoutMs} ms; reconciled later` });
        stage(q, this.failure(q.request, SETTLEMENT_PENDING, `no receipt within ${this.options.receiptTimeoutMs} ms; the outcome will be reconciled`, hash));
      }
      return;
    }
    const { receipt } = outcome;
    report.transaction = receipt.transactionHash;
    report.gasUsed = receipt.gasUsed;
    const used = receipt.status === 'success' ? authorizationsUsed(this.asset, receipt.logs) : new Set<string>();
    const share = (total: bigint | undefined) => (total === undefined ? undefined : total / BigInt(live.length));
    const l1Fee = (receipt as { l1Fee?: bigint | null }).l1Fee ?? undefined;
    for (const q of live) {
      const settled = used.has(keyOf(q.request.authorization));
      const costs = { gasUsed: share(receipt.gasUsed), gasPriceWei: receipt.effectiveGasPrice, ...(l1Fee ? { l1FeeWei: share(l1Fee) } : {}) };
      if (settled) {
        outcomes.push({ id: q.request.paymentId, state: 'settled', txHash: receipt.transactionHash, ...costs });
        stage(q, this.success(q.request, receipt.transactionHash));
        continue;
      }
      const why = receipt.status === 'success' ? 'USDC did not execute this authorization in the batch' : 'the settlement transaction reverted';
      outcomes.push({ id: q.request.paymentId, state: 'failed', txHash: receipt.transactionHash, error: `invalid_exact_evm_transaction_failed: ${why}`, ...costs });
      if (q.answered) {
        // The gate heard success and will not hear of this: the engine tells the payer's standing.
        this.options.log.error({ payment: q.request.paymentId, tx: receipt.transactionHash }, 'a result was delivered on submission and its settlement failed');
        this.options.chainFailures?.failedOnChain(q.request.authorization.authorization.from);
      }
      stage(q, this.failure(q.request, 'invalid_exact_evm_transaction_failed', why, receipt.transactionHash));
    }
  }

  private async recordOutcomes(outcomes: SettlementOutcome[]): Promise<void> {
    try {
      await this.options.ledger.recordOutcomes(outcomes);
    } catch (error) {
      // The rows stay `settling` with their hash: reconciliation reads the chain and finishes them.
      this.options.log.error({ err: error, payments: outcomes.map((o) => o.id) }, 'settlement outcomes could not be recorded');
    }
  }

  private get asset(): Address {
    return this.options.network.usdc.address;
  }

  private success(request: SettlementRequest, transaction: Hex): SettleResponse {
    return { success: true, transaction, network: this.options.network.caip2, payer: getAddress(request.authorization.authorization.from) };
  }

  private failure(request: SettlementRequest, errorReason: string, errorMessage: string, transaction: Hex | '' = ''): SettleResponse {
    return { success: false, errorReason, errorMessage, transaction, network: this.options.network.caip2, payer: getAddress(request.authorization.authorization.from) };
  }
}
