// The payment ledger: every authorization toolgate has seen and where its money stands.
// The unique (payer, nonce) lock is the replay guard: one authorization, one run, one settlement.
import type { PaymentReports } from './payment-reports.ts';

/**
 * verified -> running -> settling -> settled | failed | pending, and running -> released.
 * `pending`: a settlement was sent but its outcome is unknown (receipt timeout); reconciled later.
 * `released` and `failed` authorizations may be locked again (no money moved).
 */
export type PaymentState = 'verified' | 'running' | 'settling' | 'settled' | 'released' | 'failed' | 'pending';

export const relockableStates: readonly PaymentState[] = ['released', 'failed'];

export interface PaymentLock {
  payer: string;
  nonce: string;
  tool: string;
  /** Atomic USDC units. */
  amount: bigint;
  network: string;
  resource: string;
}

export interface PaymentRecord extends PaymentLock {
  id: number;
  state: PaymentState;
  txHash: string | null;
  error: string | null;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
}

export type LockResult = { locked: true; id: number } | { locked: false; state: PaymentState };

export interface StateChange {
  txHash?: string;
  error?: string;
}

export interface PaymentLedger {
  /** Atomically claims an authorization; only one concurrent caller can win it. */
  lock(entry: PaymentLock): Promise<LockResult>;
  transition(id: number, state: PaymentState, change?: StateChange): Promise<void>;
  find(payer: string, nonce: string): Promise<PaymentRecord | undefined>;
  /** Rows in the given states, oldest first (for reconciliation after a restart). */
  inStates(states: readonly PaymentState[]): Promise<PaymentRecord[]>;
  /** Read-only aggregates over the same store, for the merchant dashboard. */
  reports(): PaymentReports;
  ping(): Promise<void>;
  close(): Promise<void>;
}
