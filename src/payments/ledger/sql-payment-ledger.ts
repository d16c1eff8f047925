// PaymentLedger on SQL, one code path for PGlite and PostgreSQL.
import type { LedgerScheme, LockResult, PaymentLedger, PaymentLock, PaymentRecord, PaymentState, SettlementOutcome, StateChange, Submission } from './payment-ledger.ts';
import { relockableStates } from './payment-ledger.ts';
import type { PaymentReports } from './payment-reports.ts';
import { SqlPaymentReports } from './payment-reports.ts';
import { migrate } from './schema.ts';
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
  signed_authorization: string | null;
  settler: string | null;
  batch_size: number | null;
  gas_used: string | null;
  gas_price_wei: string | null;
  l1_fee_wei: string | null;
  payment_identifier: string | null;
  request_fingerprint: string | null;
  result: string | null;
  instance: string | null;
  scheme: LedgerScheme;
  channel_id: string | null;
  channel_cumulative: string | null;
  payment_response: string | null;
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
  received: 'received_at',
  claimed: 'claimed_at',
  deposited: 'deposited_at',
};

const relockable = relockableStates.map((s) => `'${s}'`).join(', ');

/** The ledger keeps payer and nonce lowercase: one key for an authorization, from an entry or a row. */
const lockKey = (e: { payer: string; nonce: string }) => `${e.payer.toLowerCase()} ${e.nonce.toLowerCase()}`;

/**
 * The inserts that lock a payment (their conflicts found through the unique index) and the update of
 * one row by its id plan the same whatever the values: their plans are kept (QueryOptions). Not the
 * updates of many rows at once, whose kept plans, made without statistics, may scan `payments`.
 */
const KEPT_PLAN = { prepared: true } as const;

/** A released authorization locked again starts afresh (its attempts counted). */
const RELOCK_SET = `state = 'running', tool = EXCLUDED.tool, amount = EXCLUDED.amount, network = EXCLUDED.network,
  resource = EXCLUDED.resource, signed_authorization = EXCLUDED.signed_authorization,
  payment_identifier = EXCLUDED.payment_identifier, request_fingerprint = EXCLUDED.request_fingerprint, result = NULL,
  instance = EXCLUDED.instance, attempts = payments.attempts + 1, tx_hash = NULL, error = NULL,
  verified_at = now(), running_at = now(), updated_at = now(), submitted_at = NULL, settler = NULL,
  batch_size = NULL, gas_used = NULL, gas_price_wei = NULL, l1_fee_wei = NULL`;

const bigOrNull = (value: string | null) => (value === null ? null : BigInt(value));

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
    signedAuthorization: row.signed_authorization,
    settler: row.settler,
    batchSize: row.batch_size,
    gasUsed: bigOrNull(row.gas_used),
    gasPriceWei: bigOrNull(row.gas_price_wei),
    l1FeeWei: bigOrNull(row.l1_fee_wei),
    paymentIdentifier: row.payment_identifier,
    requestFingerprint: row.request_fingerprint,
    result: row.result,
    instance: row.instance,
    scheme: row.scheme,
    channelId: row.channel_id,
    channelCumulative: bigOrNull(row.channel_cumulative),
    paymentResponse: row.payment_response,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
  };
}

export class SqlPaymentLedger implements PaymentLedger {
  private constructor(private readonly db: SqlClient) {}

  static async open(db: SqlClient): Promise<SqlPaymentLedger> {
    await migrate(db);
    return new SqlPaymentLedger(db);
  }

  private pendingLocks: { entry: PaymentLock; resolve(result: LockResult): void; reject(error: unknown): void }[] = [];

  /**
   * Locks arriving in the same turn of the event loop share one INSERT (a statement costs the
   * embedded store far more than a row). Anything unusual in a batch (a payment-identifier, the
   * same authorization twice, an error) is locked one by one, as `lockOne` always did.
   */
  lock(entry: PaymentLock): Promise<LockResult> {
    return new Promise<LockResult>((resolve, reject) => {
      this.pendingLocks.push({ entry, resolve, reject });
      if (this.pendingLocks.length === 1) setImmediate(() => void this.flushLocks());
    });
  }

  private async flushLocks(): Promise<void> {
    const batch = this.pendingLocks;
    this.pendingLocks = [];
    const seen = new Set<string>();
    const together: typeof batch = [];
    const alone: typeof batch = [];
    for (const item of batch) {
      const key = lockKey(item.entry);
      if (item.entry.paymentIdentifier !== undefined || item.entry.scheme !== undefined || seen.has(key)) alone.push(item);
      else {
        seen.add(key);
        together.push(item);
      }
    }
    if (together.length === 1) alone.unshift(together.pop()!);
    if (together.length > 0) {
      try {
        const results = await this.lockMany(together.map((t) => t.entry));
        together.forEach((item, i) => item.resolve(results[i]!));
      } catch {
        alone.unshift(...together);
      }
    }
    for (const item of alone) await this.lockOne(item.entry).then(item.resolve, item.reject);
  }

  private async lockMany(entries: readonly PaymentLock[]): Promise<LockResult[]> {
    const column = <T>(pick: (e: PaymentLock) => T) => entries.map(pick);
    const { rows } = await this.db.query<{ id: string | number; payer: string; nonce: string }>(
      `INSERT INTO payments (payer, nonce, tool, amount, network, resource, signed_authorization, instance, state, verified_at, running_at)
       SELECT payer, nonce, tool, amount, network, resource, signed, instance, 'running', now(), now()
       FROM unnest($1::text[], $2::text[], $3::text[], $4::numeric[], $5::text[], $6::text[], $7::text[], $8::text[])
         AS e(payer, nonce, tool, amount, network, resource, signed, instance)
       ON CONFLICT ON CONSTRAINT payments_payer_nonce DO UPDATE
         SET ${RELOCK_SET}
         WHERE payments.state IN (${relockable})
       RETURNING id, payer, nonce`,
      [
        column((e) => e.payer.toLowerCase()), column((e) => e.nonce.toLowerCase()), column((e) => e.tool), column((e) => e.amount.toString()),
        column((e) => e.network), column((e) => e.resource), column((e) => e.signedAuthorization ?? null), column((e) => e.instance ?? null),
      ],
      KEPT_PLAN,
    );
    const won = new Map(rows.map((r) => [lockKey(r), Number(r.id)]));
    const lost = entries.filter((e) => !won.has(lockKey(e)));
    const states = new Map<string, PaymentState>();
    if (lost.length > 0) {
      const { rows: existing } = await this.db.query<{ payer: string; nonce: string; state: PaymentState }>(
        `SELECT p.payer, p.nonce, p.state FROM payments p JOIN unnest($1::text[], $2::text[]) AS k(payer, nonce) ON p.payer = k.payer AND p.nonce = k.nonce`,
        [lost.map((e) => e.payer.toLowerCase()), lost.map((e) => e.nonce.toLowerCase())],
      );
      for (const row of existing) states.set(lockKey(row), row.state);
    }
    return entries.map((e) => {
      const key = lockKey(e);
      const id = won.get(key);
      // A row missing now can only have been deleted in between: in use, never free.
      return id !== undefined ? { locked: true, id } : { locked: false, state: states.get(key) ?? 'running' };
    });
  }

  private async lockOne(entry: PaymentLock): Promise<LockResult> {
    const payer = entry.payer.toLowerCase();
    const nonce = entry.nonce.toLowerCase();
    let rows: { id: string | number }[];
    try {
      ({ rows } = await this.db.query<{ id: string | number }>(
        `INSERT INTO payments (payer, nonce, tool, amount, network, resource, signed_authorization, payment_identifier, request_fingerprint, instance,
           scheme, channel_id, channel_cumulative, state, verified_at, running_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, 'running', now(), now())
         ON CONFLICT ON CONSTRAINT payments_payer_nonce DO UPDATE
           SET ${RELOCK_SET}
           WHERE payments.state IN (${relockable})
         RETURNING id`,
        [payer, nonce, entry.tool, entry.amount.toString(), entry.network, entry.resource, entry.signedAuthorization ?? null,
          entry.paymentIdentifier ?? null, entry.requestFingerprint ?? null, entry.instance ?? null,
          entry.scheme ?? 'exact', entry.channelId?.toLowerCase() ?? null, entry.channelCumulative?.toString() ?? null],
        KEPT_PLAN,
      ));
    } catch (error) {
      // The partial unique index: one live payment per payment-identifier.
      if ((error as { code?: string }).code === '23505' && String((error as Error).message).includes('payments_identifier_active')) {
        return { locked: false, state: 'running', identifierInUse: true };
      }
      throw error;
    }
    const won = rows[0];
    if (won) return { locked: true, id: Number(won.id) };
    const existing = await this.find(payer, nonce);
    // The row can only be missing if it was deleted in between; report it as in use, never as free.
    return { locked: false, state: existing?.state ?? 'running' };
  }

  async transition(id: number, state: PaymentState, change: StateChange = {}): Promise<void> {
    await this.db.query(
      `UPDATE payments SET state = $2, ${stateColumn[state]} = now(), updated_at = now(),
         tx_hash = COALESCE($3, tx_hash), error = COALESCE($4, error), result = COALESCE($5, result)
       WHERE id = $1`,
      [id, state, change.txHash ?? null, change.error ?? null, change.result ?? null],
      KEPT_PLAN,
    );
  }

  async recordSubmission(ids: readonly number[], submission: Submission): Promise<void> {
    await this.db.query(
      `UPDATE payments SET state = 'settling', settling_at = COALESCE(settling_at, now()),
         tx_hash = $2, settler = $3, batch_size = $4, submitted_at = now(), updated_at = now()
       WHERE id = ANY($1::bigint[])`,
      [ids, submission.txHash, submission.settler, submission.batchSize],
    );
  }

  async recordOutcomes(outcomes: readonly SettlementOutcome[]): Promise<void> {
    if (outcomes.length === 0) return;
    const column = <T>(pick: (o: SettlementOutcome) => T) => outcomes.map(pick);
    const text = (value: bigint | undefined) => (value === undefined ? null : value.toString());
    await this.db.query(
      `UPDATE payments AS p SET
         state = o.state, updated_at = now(),
         settled_at = CASE WHEN o.state = 'settled' THEN now() ELSE p.settled_at END,
         failed_at  = CASE WHEN o.state = 'failed'  THEN now() ELSE p.failed_at END,
         pending_at = CASE WHEN o.state = 'pending' THEN now() ELSE p.pending_at END,
         tx_hash = COALESCE(o.tx_hash, p.tx_hash), error = COALESCE(o.error, p.error),
         gas_used = COALESCE(o.gas_used, p.gas_used), gas_price_wei = COALESCE(o.gas_price_wei, p.gas_price_wei),
         l1_fee_wei = COALESCE(o.l1_fee_wei, p.l1_fee_wei)
       FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::numeric[], $6::numeric[], $7::numeric[])
         AS o(id, state, tx_hash, error, gas_used, gas_price_wei, l1_fee_wei)
       WHERE p.id = o.id`,
      [
        column((o) => o.id), column((o) => o.state), column((o) => o.txHash ?? null), column((o) => o.error ?? null),
        column((o) => text(o.gasUsed)), column((o) => text(o.gasPriceWei)), column((o) => text(o.l1FeeWei)),
      ],
    );
  }

  async find(payer: string, nonce: string): Promise<PaymentRecord | undefined> {
    const { rows } = await this.db.query<PaymentRow>('SELECT * FROM payments WHERE payer = $1 AND nonce = $2', [
      payer.toLowerCase(),
      nonce.toLowerCase(),
    ]);
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async findByIdentifier(identifier: string): Promise<PaymentRecord | undefined> {
    const { rows } = await this.db.query<PaymentRow>(
      `SELECT * FROM payments WHERE payment_identifier = $1 AND state NOT IN ('released', 'failed')`,
      [identifier],
    );
    return rows[0] ? toRecord(rows[0]) : undefined;
  }

  async forgetResults(before: Date): Promise<number> {
    // A channel call's result is kept from its charge (received), whether or not it is collected yet.
    const { rows } = await this.db.query<{ id: string }>(
      `UPDATE payments SET result = NULL
       WHERE result IS NOT NULL AND (
         (state = 'settled' AND settled_at < $1)
         OR (state IN ('received', 'claimed') AND received_at < $1))
       RETURNING id`,
      [before.toISOString()],
    );
    return rows.length;
  }

  async pruneUnpaid(before: Date, nowSeconds: bigint): Promise<number> {
    // validBefore is read from the stored authorization, which the gate writes as JSON itself.
    const { rows } = await this.db.query<{ id: string }>(
      `DELETE FROM payments
       WHERE updated_at < $1 AND (
         state = 'released'
         OR (state = 'failed' AND gas_used IS NULL AND signed_authorization IS NOT NULL
             AND ((signed_authorization::json -> 'authorization' ->> 'validBefore')::numeric) < $2::numeric))
       RETURNING id`,
      [before.toISOString(), nowSeconds.toString()],
    );
    return rows.length;
  }

  async inStates(states: readonly PaymentState[]): Promise<PaymentRecord[]> {
    // Channel rows are the channel code's (channel-payments.ts): nothing here may settle or release them.
    const { rows } = await this.db.query<PaymentRow>(`SELECT * FROM payments WHERE state = ANY($1) AND scheme = 'exact' ORDER BY id`, [states]);
    return rows.map(toRecord);
  }

  reports(): PaymentReports {
    return new SqlPaymentReports(this.db);
  }

  async heartbeat(instance: string, starting = false): Promise<void> {
    await this.db.query(
      `INSERT INTO instances (id, started_at, seen_at) VALUES ($1, now(), now())
       ON CONFLICT (id) DO UPDATE SET seen_at = now(), started_at = CASE WHEN $2 THEN now() ELSE instances.started_at END`,
      [instance, starting],
    );
  }

  async liveInstances(since: Date): Promise<Set<string>> {
    const { rows } = await this.db.query<{ id: string }>('SELECT id FROM instances WHERE seen_at >= $1', [since.toISOString()]);
    return new Set(rows.map((r) => r.id));
  }

  async ping(): Promise<void> {
    await this.db.query('SELECT 1');
  }

  close(): Promise<void> {
    return this.db.close();
  }
}
