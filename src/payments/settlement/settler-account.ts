// One settler key: numbers its transactions, records each hash before the transaction leaves (so a
// crash can never hide a sent settlement), waits for the receipt at the configured depth, and
// replaces a transaction that no block takes with the same nonce at a higher fee.
import { BaseError, HttpRequestError, keccak256, TimeoutError, TransactionReceiptNotFoundError } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Address, Chain, Hex, PrivateKeyAccount, PublicClient, TransactionReceipt } from 'viem';
import { NonceManager } from './nonce-manager.ts';
import type { SettlerKeyLock } from './settler-key-lock.ts';

export interface SettlementTransaction {
  to: Address;
  data: Hex;
  gas: bigint;
}

interface Fees {
  maxFeePerGas: bigint;
  maxPriorityFeePerGas: bigint;
}

export interface SentTransaction extends SettlementTransaction, Fees {
  nonce: number;
  /** The first transaction's hash. */
  hash: Hex;
  /** Every hash sent at this nonce, the first one first (replacements follow). */
  hashes: Hex[];
}

export type TransactionOutcome =
  | { kind: 'mined'; receipt: TransactionReceipt }
  | { kind: 'timeout'; hashes: Hex[] };

export interface SettlerAccountOptions {
  chain: Chain;
  client: PublicClient;
  key: Hex;
  pollingIntervalMs: number;
  receiptTimeoutMs: number;
  /** Without a receipt this long after a send, the transaction is sent again at a higher fee. */
  replaceAfterMs: number;
  /** Blocks on top of the one holding the receipt, plus one: 1 means the receipt itself. */
  confirmations: number;
  /** Set when other instances may send from this key: each send then reads the nonce under the lock. */
  keyLock?: SettlerKeyLock;
}

const FIRST_POLL_MS = 5;

/** Half a Base block: fees move at most once a block (EIP-1559's base fee). */
const FEES_FRESH_MS = 1_000;

/** A replacement must raise both fees by at least 10 % (geth's and anvil's rule); 12.5 % leaves room. */
const bump = (fee: bigint) => (fee * 1125n) / 1000n + 1n;

export class SettlerAccount {
  readonly account: PrivateKeyAccount;
  /** Transactions of this key sent and not yet resolved. */
  inFlight = 0;
  private readonly nonces: NonceManager;

  constructor(private readonly options: SettlerAccountOptions) {
    this.account = privateKeyToAccount(options.key);
    this.nonces = new NonceManager(() => options.client.getTransactionCount({ address: this.account.address, blockTag: 'pending' }));
  }

  get address(): Address {
    return this.account.address;
  }

  /**
   * Signs and sends `transaction` at this key's next nonce; `beforeSend` runs with the hash first
   * (write-ahead) and may veto by throwing.
   */
  async submit(transaction: SettlementTransaction, beforeSend: (hash: Hex) => Promise<void>): Promise<SentTransaction> {
    const fees = await this.fees();
    const send = () => this.nonces.send(async (nonce) => {
      const signed = await this.sign({ ...transaction, ...fees, nonce });
      await beforeSend(signed.hash);
      await this.options.client.sendRawTransaction({ serializedTransaction: signed.raw });
      return { ...transaction, ...fees, nonce, hashes: [signed.hash], hash: signed.hash };
    });
    const { keyLock } = this.options;
    if (!keyLock) return send();
    return keyLock.hold(this.address, () => {
      // Another instance may have sent since: the node's pending count is the truth under the lock.
      this.nonces.reset();
      return send();
    });
  }

  /** Waits for one of the transaction's hashes to be mined, replacing it when it lingers. */
  async outcome(sent: SentTransaction, onReplacement: (hash: Hex) => Promise<void>): Promise<TransactionOutcome> {
    const { pollingIntervalMs, receiptTimeoutMs, replaceAfterMs } = this.options;
    const started = Date.now();
    let lastSend = started;
    let current: SentTransaction = sent;
    // Asked again soon at first (a local chain mines within milliseconds, a Flashblock within 200),
    // then no more often than the polling interval.
    let wait = Math.min(FIRST_POLL_MS, pollingIntervalMs);
    while (Date.now() - started < receiptTimeoutMs) {
      const receipt = await this.firstReceipt(current.hashes);
      if (receipt) {
        const confirmed = await this.confirmed(receipt, started);
        if (confirmed) return { kind: 'mined', receipt: confirmed };
        continue; // reorged out: wait for it again
      }
      if (Date.now() - lastSend >= replaceAfterMs) {
        current = await this.replace(current, onReplacement);
        lastSend = Date.now();
      }
      await sleep(wait);
      wait = Math.min(wait * 2, pollingIntervalMs);
    }
    // The nonce may now be a gap that blocks every later transaction: ask the node again.
    this.nonces.reset();
    return { kind: 'timeout', hashes: current.hashes };
  }

  private async replace(sent: SentTransaction, onReplacement: (hash: Hex) => Promise<void>): Promise<SentTransaction> {
    const now = await this.fees().catch(() => sent);
    const fees = {
      maxFeePerGas: max(now.maxFeePerGas, bump(sent.maxFeePerGas)),
      maxPriorityFeePerGas: max(now.maxPriorityFeePerGas, bump(sent.maxPriorityFeePerGas)),
    };
    const signed = await this.sign({ ...sent, ...fees });
    try {
      await onReplacement(signed.hash);
      await this.options.client.sendRawTransaction({ serializedTransaction: signed.raw });
    } catch {
      // "nonce too low" or "already known": one of the earlier hashes was taken; keep waiting for it.
      return sent;
    }
    return { ...sent, ...fees, hashes: [...sent.hashes, signed.hash] };
  }

  private async firstReceipt(hashes: readonly Hex[]): Promise<TransactionReceipt | undefined> {
    for (const hash of hashes) {
      try {
        return await this.options.client.getTransactionReceipt({ hash });
      } catch (error) {
        if (!(error instanceof TransactionReceiptNotFoundError)) throw error;
      }
    }
    return undefined;
  }

  /** The receipt once `confirmations` blocks hold it, read again then (undefined: it was reorged out). */
  private async confirmed(receipt: TransactionReceipt, started: number): Promise<TransactionReceipt | undefined> {
    if (this.options.confirmations <= 1) return receipt;
    const target = receipt.blockNumber + BigInt(this.options.confirmations - 1);
    while ((await this.options.client.getBlockNumber({ cacheTime: 0 })) < target) {
      if (Date.now() - started >= this.options.receiptTimeoutMs) return receipt;
      await sleep(this.options.pollingIntervalMs);
    }
    const again = await this.firstReceipt([receipt.transactionHash]);
    return again && again.blockHash === receipt.blockHash ? again : undefined;
  }

  /** The node's fee estimate, asked at most once per FEES_FRESH_MS: a busy key sends many transactions a block. */
  private async fees(): Promise<Fees> {
    const now = Date.now();
    if (!this.feeEstimate || now - this.feeEstimate.at > FEES_FRESH_MS) {
      const estimate = this.options.client.estimateFeesPerGas({ chain: this.options.chain }).then(({ maxFeePerGas, maxPriorityFeePerGas }) => ({ maxFeePerGas, maxPriorityFeePerGas }));
      this.feeEstimate = { at: now, fees: estimate };
      estimate.catch(() => {
        if (this.feeEstimate?.fees === estimate) this.feeEstimate = undefined;
      });
    }
    return this.feeEstimate.fees;
  }

  private feeEstimate: { at: number; fees: Promise<Fees> } | undefined;

  private async sign(tx: SettlementTransaction & Fees & { nonce: number }): Promise<{ raw: Hex; hash: Hex }> {
    const raw = await this.account.signTransaction({
      type: 'eip1559', chainId: this.options.chain.id, nonce: tx.nonce, to: tx.to, data: tx.data, gas: tx.gas,
      maxFeePerGas: tx.maxFeePerGas, maxPriorityFeePerGas: tx.maxPriorityFeePerGas, value: 0n,
    });
    return { raw, hash: keccak256(raw) };
  }
}

/**
 * Whether a failed send may still have reached the node (a timeout, a dropped connection): then
 * the money may move, and the payments stay pending until the chain says.
 */
export function sendMayHaveLanded(error: unknown): boolean {
  if (!(error instanceof BaseError)) return true;
  return Boolean(error.walk((e) => e instanceof HttpRequestError || e instanceof TimeoutError));
}

const max = (a: bigint, b: bigint) => (a > b ? a : b);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
