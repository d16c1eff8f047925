// PaymentLedger on SQL, one code path for PGlite and PostgreSQL.
import type { LockResult, PaymentLedger, PaymentLock, PaymentRecord, PaymentState, StateChange } from './payment-ledger.ts';
import { relockableStates } from './payment-ledger.ts';
import type { PaymentReports } from './payment-reports.ts';
import { SqlPaymentReports } from './payment-reports.ts';
import { ledgerSchema } from './schema.ts';
import type { SqlClient } from './sql-client.ts';

interface PaymentRow {
  id: string | number;
  payer: string;
  nonce: string;
  tool: string;
  amount: string;
  network: string;
  resource: string;
  state: PaymentState;
  tx_hash: string | null;
  error: string | null;
  attempts: number;
  created_at: Date;
  updated_at: Date;
}

// The timestamp column of each state, from a fixed list: never built from caller input.
const stateColumn: Record<PaymentState, string> = {
  verified: 'verified_at',
  running: 'running_at',
  settling: 'settling_at',
  settled: 'settled_at',
  released: 'released_at',
  failed: 'failed_at',
  pending: 'pending_at',
};

const relockable = relockableStates.map((s) => `'${s}'`).join(', ');

function toRecord(row: PaymentRow): PaymentRecord {
  return {
    id: Number(row.id),
    payer: row.payer,
    nonce: row.nonce,
    tool: row.tool,
    amount: BigInt(row.amount),
    network: row.network,
    resource: row.resource,
    state: row.state,
    txHash: row.tx_hash,
    error: row.error,
    attempts: row.attempts,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export class SqlPaymentLedger implements PaymentLedger {
  private constructor(private readonly db: SqlClient) {}

  static async open(db: SqlClient): Promise<SqlPaymentLedger> {
    await db.exec(ledgerSchema);
    return new SqlPaymentLedger(db);
  }

  async lock(entry: PaymentLock): Promise<LockResult> {
    const payer = entry.payer.toLowerCase();
    const nonce = entry.nonce.toLowerCase();
    const { rows } = await this.db.query<{ id: string | number }>(
      `INSERT INTO payments (payer, nonce, tool, amount, network, resource, state, verified_at)
       VALUES ($1, $2, $3, $4, $5, $6, 'verified', now())
       ON CONFLICT ON CONSTRAINT payments_payer_nonce DO UPDATE
         SET state = 'verified', tool = EXCLUDED.tool, amount = EXCLUDED.amount, network = EXCLUDED.network,
             resource = EXCLUDED.resource, attempts = payments.attempts + 1, tx_hash = NULL, error = NULL,
             verified_at = now(), updated_at = now()
         WHERE payments.state IN (${relockable})
       RETURNING id`,
      [payer, nonce, entry.tool, entry.amount.toString(), entry.network, entry.resource],
    );
    const won = rows[0];
    if (won) return { locked: true, id: Number(won.id) };
    const existing = await this.find(payer, nonce);
    // The row can only be missing if it was deleted in between; report it as in use, never as free.
    return { locked: false, state: existing?.state ?? 'running' };
  }

  async transition(id: number, state: PaymentState, change: StateChange = {}): Promise<void> {
    await this.db.query(
      `UPDATE payments SET state = $2, ${stateColumn[state]} = now(), updated_at = now(),
         tx_hash = COALESCE($3, tx_hash), error = COALESCE($4, error)
       WHERE id = $1`,
      [id, state, change.txHash ?? null, change.error ?? null],
    );
  }

  async find(payer: string, nonce: string): Promise<PaymentRecord | undefined> {
    const { rows } = await this.db.query<PaymentRow>('SELECT * FROM payments WHERE payer = $1 AND nonce = $2', [
      payer.toLowerCase(),
      nonce.toLowerCase(),
    ]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async inStates(states: readonly PaymentState[]): Promise<PaymentRecord[]> {
    const { rows } = await this.db.query<PaymentRow>('SELECT * FROM payments WHERE state = ANY($1) ORDER BY id', [states]);
    return rows.map(toRecord);
  }

  reports(): PaymentReports {
    return new SqlPaymentReports(this.db);
  }

  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
