// Finishes or releases what was in flight when the process stopped, and resolves settlements whose
// outcome was unknown, against the chain. Never sends a settlement twice: it only reads.
import type { Address, Hex } from 'viem';
import type { Logger } from '../log.ts';
import { parseEip3009Payload } from './exact-evm-payload.ts';
import type { PaymentLedger, PaymentRecord, PaymentState } from './ledger/payment-ledger.ts';

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

/** The signed authorization's validBefore (seconds), when the row kept a readable one. */
function validBefore(record: PaymentRecord): number | undefined {
  if (!record.signedAuthorization) return undefined;
  let stored: unknown;
  try {
    stored = JSON.parse(record.signedAuthorization);
  } catch {
    return undefined;
  }
  const parsed = parseEip3009Payload(stored);
  return parsed.ok ? Number(parsed.value.authorization.validBefore) : undefined;
}

/** Which calls in flight a pass may treat as abandoned. */
export interface ReconcileScope {
  /** This gateway instance (TOOLGATE_INSTANCE_ID). */
  instance: string;
  /** The pass at this instance's start: whatever it had in flight before was cut off. */
  atStart: boolean;
  /**
   * Instances seen alive lately, on a shared store: another instance's calls are abandoned once it
   * stops being seen. Undefined: this process is the store's only user.
   */
  live?: ReadonlySet<string>;
  /** Calls in flight longer than this are abandoned, whoever holds them. */
  graceMs: number;
}

const inFlight: readonly PaymentState[] = ['verified', 'running', 'settling'];

function abandoned(record: PaymentRecord, scope: ReconcileScope, now: number): boolean {
  if (!inFlight.includes(record.state)) return true;
  if (now - record.updatedAt.getTime() >= scope.graceMs) return true;
  if (!scope.live) return scope.atStart;
  if (record.instance === scope.instance) return scope.atStart;
  return record.instance !== null && !scope.live.has(record.instance);
}

/** Pending settlements, and the calls in flight that `scope` says nobody is finishing any more. */
export async function reconcilePayments(
  ledger: PaymentLedger,
  chain: SettlementEvidence,
  log: Logger,
  scope: ReconcileScope,
): Promise<ReconcileSummary> {
  const summary: ReconcileSummary = { settled: 0, failed: 0, released: 0, stillPending: 0 };
  const now = Date.now();
  const records = (await ledger.inStates([...inFlight, 'pending'])).filter((r) => abandoned(r, scope, now));
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
