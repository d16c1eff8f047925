// The payment ledger: every authorization toolgate has seen and where its money stands.
// The unique (payer, nonce) lock is the replay guard: one authorization, one run, one settlement.
import type { PaymentReports } from './payment-reports.ts';

/**
 * `exact`: running -> settling -> settled | failed | pending, and running -> released.
 * `settling`: the result is ready and waits for its settlement; with a tx hash, the transaction
 * carrying it was sent. `pending`: sent, outcome unknown (receipt timeout); reconciled later.
 * `verified` is kept for ledgers written before the lock went straight to `running`.
 * Only `released` authorizations (the tool failed, nothing was asked of the chain) may be locked
 * again. `failed` is final: the chain refused the authorization, or its settlement could not be
 * sent, and an authorization that ran a tool without paying never runs one again.
 */
export type PaymentState = 'verified' | 'running' | 'settling' | 'settled' | 'released' | 'failed' | 'pending' | ChannelPaymentState;

/**
 * `batch-settlement` (channel-payments.ts): a call's row is `received` when its voucher is charged
 * (owed to us, not on chain), `claimed` once the claim is on chain (held for payTo by the contract),
 * then `settled` when the contract's settle moved it to payTo: only then is it collected. A keyed
 * call is `running` from admission and `released` when its tool failed. A deposit's row is
 * `deposited`: the payer's money in the channel, never revenue.
 */
export type ChannelPaymentState = 'received' | 'claimed' | 'deposited';

/** The x402 scheme of a ledger row. */
export type LedgerScheme = 'exact' | 'batch-settlement';

export const relockableStates: readonly PaymentState[] = ['released'];

export interface PaymentLock {
  payer: string;
  nonce: string;
  tool: string;
  /** Atomic USDC units. */
  amount: bigint;
  network: string;
  resource: string;
  /**
   * The signed EIP-3009 authorization as JSON (bigints as decimal strings): what a settler needs to
   * settle it, and what reconciliation reads its expiry from.
   */
  signedAuthorization?: string;
  /** The x402 payment-identifier the client sent, and the fingerprint of the request it pays for. */
  paymentIdentifier?: string;
  requestFingerprint?: string;
  /** The gateway instance running this call (TOOLGATE_INSTANCE_ID). */
  instance?: string;
  /** `exact` when absent. A channel call also names its channel and the cumulative amount its voucher brings the channel to. */
  scheme?: LedgerScheme;
  channelId?: string;
  channelCumulative?: bigint;
}

export interface PaymentRecord extends Omit<PaymentLock, 'signedAuthorization' | 'paymentIdentifier' | 'requestFingerprint' | 'instance' | 'scheme' | 'channelId' | 'channelCumulative'> {
  id: number;
  state: PaymentState;
  txHash: string | null;
  error: string | null;
  attempts: number;
  signedAuthorization: string | null;
  /** The key that sent the settlement transaction, and how many payments that transaction carried. */
  settler: string | null;
  batchSize: number | null;
  /** This payment's share of its settlement's cost (see SettlementOutcome). */
  gasUsed: bigint | null;
  gasPriceWei: bigint | null;
  l1FeeWei: bigint | null;
  paymentIdentifier: string | null;
  requestFingerprint: string | null;
  /** The tool's result as JSON, kept for a retry carrying the same payment-identifier. */
  result: string | null;
  instance: string | null;
  scheme: LedgerScheme;
  channelId: string | null;
  channelCumulative: bigint | null;
  /** The PAYMENT-RESPONSE given with the result, as JSON, when the scheme's is more than a transaction hash (channels). */
  paymentResponse: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** `identifierInUse`: another payment in flight or settled carries the same payment-identifier. */
export type LockResult = { locked: true; id: number } | { locked: false; state: PaymentState; identifierInUse?: true };

export interface StateChange {
  txHash?: string;
  error?: string;
  /** The result to keep for retries (payments with a payment-identifier). */
  result?: string;
}

/** What became of one payment's settlement, with its share of the transaction's cost. */
export interface SettlementOutcome {
  id: number;
  state: Extract<PaymentState, 'settled' | 'failed' | 'pending'>;
  txHash?: string;
  error?: string;
  /** This payment's share of the transaction's gas (the transaction's gas used over its payments). */
  gasUsed?: bigint;
  gasPriceWei?: bigint;
  /** This payment's share of the L1 data fee (OP-stack chains). */
  l1FeeWei?: bigint;
}

export interface Submission {
  txHash: string;
  settler: string;
  batchSize: number;
}

export interface PaymentLedger {
  /**
   * Atomically claims an authorization for a run (state `running`); only one concurrent caller
   * can win it.
   */
  lock(entry: PaymentLock): Promise<LockResult>;
  transition(id: number, state: PaymentState, change?: StateChange): Promise<void>;
  /**
   * A settlement transaction carrying these payments is about to be sent: their rows move to
   * `settling` with its hash (one write per batch, before the send).
   */
  recordSubmission(ids: readonly number[], submission: Submission): Promise<void>;
  /** The outcomes of settlements, in one write. */
  recordOutcomes(outcomes: readonly SettlementOutcome[]): Promise<void>;
  find(payer: string, nonce: string): Promise<PaymentRecord | undefined>;
  /** The payment in flight or settled that carries this payment-identifier. */
  findByIdentifier(identifier: string): Promise<PaymentRecord | undefined>;
  /**
   * Drops the results kept for retries of payments settled before `before`, and of channel calls
   * charged before it and not settled yet (the identifier stays:
   * a late retry is told the result is gone, not charged again); returns how many.
   */
  forgetResults(before: Date): Promise<number>;
  /**
   * Deletes what unpaid calls left behind, last touched before `before`: released rows, and failed
   * rows that cost no gas whose authorization has expired (USDC can no longer execute it, so
   * forgetting it cannot let it run a tool again). Failed rows that spent gas stay: they are what
   * collecting cost. Returns how many rows went.
   */
  pruneUnpaid(before: Date, nowSeconds: bigint): Promise<number>;
  /** `exact` rows in the given states, oldest first (for reconciliation after a restart). */
  inStates(states: readonly PaymentState[]): Promise<PaymentRecord[]>;
  /** Read-only aggregates over the same store, for the merchant dashboard. */
  reports(): PaymentReports;
  ping(): Promise<void>;
  /** Records that `instance` is alive (`starting`: a new life, its earlier one is over). */
  heartbeat(instance: string, starting?: boolean): Promise<void>;
  /** Instances seen alive since `since`. */
  liveInstances(since: Date): Promise<Set<string>>;
  close(): Promise<void>;
}
