// Finishes or releases what was in flight when the process stopped, and resolves settlements whose
// outcome was unknown, against the chain. Never sends a settlement twice: it only reads.
import type { Address, Hex } from 'viem';
import type { Logger } from '../log.ts';
import type { PaymentLedger, PaymentRecord } from './ledger/payment-ledger.ts';

export interface SettlementEvidence {
  transactionOutcome(hash: Hex): Promise<'success' | 'reverted' | 'unknown'>;
  authorizationUsed(payer: Address, nonce: Hex): Promise<boolean>;
}

export interface ReconcileSummary {
  settled: number;
  failed: number;
  released: number;
  stillPending: number;
}

async function resolve(record: PaymentRecord, chain: SettlementEvidence, ledger: PaymentLedger): Promise<keyof ReconcileSummary> {
  if (record.state === 'verified' || record.state === 'running') {
    // No settlement was sent for these: the result never reached the caller, so nothing is owed.
    await ledger.transition(record.id, 'released', { error: 'released at restart: the call did not complete' });
    return 'released';
  }
  if (record.txHash) {
    const outcome = await chain.transactionOutcome(record.txHash as Hex);
    if (outcome === 'success') {
      await ledger.transition(record.id, 'settled', { error: 'reconciled: transaction mined' });
      return 'settled';
    }
    if (outcome === 'reverted') {
      await ledger.transition(record.id, 'failed', { error: 'reconciled: transaction reverted' });
      return 'failed';
    }
  }
  if (await chain.authorizationUsed(record.payer as Address, record.nonce as Hex)) {
    await ledger.transition(record.id, 'settled', { error: 'reconciled: authorization used on chain' });
    return 'settled';
  }
  if (record.state === 'settling' && !record.txHash) {
    await ledger.transition(record.id, 'released', { error: 'released at restart: no settlement transaction was sent' });
    return 'released';
  }
  const expiry = validBefore(record);
  if (expiry !== undefined && Date.now() / 1000 > expiry + EXPIRY_MARGIN_S) {
    // Unused and past its validBefore: USDC will never execute it, whatever became of the transaction.
    await ledger.transition(record.id, 'failed', { error: 'reconciled: the authorization expired unused; no money moved' });
    return 'failed';
  }
  return 'stillPending';
}

/** Slack for a node's block time trailing the wall clock. */
const EXPIRY_MARGIN_S = 60;

function validBefore(record: PaymentRecord): number | undefined {
  if (!record.signedAuthorization) return undefined;
  try {
    const signed = JSON.parse(record.signedAuthorization) as { authorization?: { validBefore?: unknown } };
    const value = Number(signed.authorization?.validBefore);
    return Number.isFinite(value) ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Pending settlements, and calls left in flight for longer than `inFlightGraceMs` (at start of a
 * single-process store that is 0: nothing else can be running them; with a shared store, give
 * other instances time to finish their own).
 */
export async function reconcilePayments(
  ledger: PaymentLedger,
  chain: SettlementEvidence,
  log: Logger,
  inFlightGraceMs: number,
): Promise<ReconcileSummary> {
  const summary: ReconcileSummary = { settled: 0, failed: 0, released: 0, stillPending: 0 };
  const cutoff = Date.now() - inFlightGraceMs;
  const records = (await ledger.inStates(['verified', 'running', 'settling', 'pending'])).filter(
    (r) => r.state === 'pending' || r.updatedAt.getTime() <= cutoff,
  );
  for (const record of records) {
    try {
      summary[await resolve(record, chain, ledger)] += 1;
    } catch (error) {
      summary.stillPending += 1;
      log.warn({ err: error, payment: record.id }, 'could not reconcile payment yet');
    }
  }
  if (records.length > 0) log.info({ ...summary }, 'reconciled payments');
  return summary;
}
