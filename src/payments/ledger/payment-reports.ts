// Aggregates over the payments table for the merchant dashboard: revenue, settlement latency,
// payments by state. Revenue is what was earned: `exact` payments settled, and channel calls
// charged (received, claimed or settled); `collected` is what reached payTo (settled). Read-only, one code path for PGlite and PostgreSQL (casts make row types
// the same on both: counts ::int, sums ::text, milliseconds ::float8).
import type { ChannelCollectionReport } from './channel-reports.ts';
import { channelCollection } from './channel-reports.ts';
import type { LedgerScheme, PaymentState } from './payment-ledger.ts';
import type { SqlClient } from './sql-client.ts';

export interface AmountCount {
  /** Atomic USDC units. */
  amount: bigint;
  count: number;
}

export interface ToolRevenue extends AmountCount {
  tool: string;
  /** The same, by scheme (a scheme without revenue for the tool is absent). */
  perScheme: Partial<Record<LedgerScheme, AmountCount>>;
}

/** One scheme's money: earned (exact: settled; channels: charged) and collected (settled to payTo). */
export interface SchemeRevenue {
  earned: AmountCount;
  collected: AmountCount;
}

export interface DayRevenue extends AmountCount {
  /** UTC calendar day, YYYY-MM-DD. */
  day: string;
}

/** All-time totals, from one pass over the table. */
export interface LedgerTotals {
  /** Count and amount of the payments in each state; every state is present. */
  byState: Record<PaymentState, AmountCount>;
  /** Earned: settled `exact` payments and charged channel calls. */
  revenue: AmountCount;
  /** Earned per tool, highest revenue first. */
  revenuePerTool: ToolRevenue[];
  perScheme: Record<LedgerScheme, SchemeRevenue>;
}

export interface LatencyBucket {
  /** Lower bound in ms (inclusive); 0 for the first bucket. */
  fromMs: number;
  /** Upper bound in ms (exclusive); null for the last, open bucket. */
  toMs: number | null;
  count: number;
}

/** Time from sending a settlement to its confirmation (settled_at - settling_at). */
export interface SettlementLatencyReport {
  /** How many settlements the figures are over (the most recent ones, up to the sample size asked). */
  sample: number;
  p50Ms: number | null;
  p90Ms: number | null;
  p99Ms: number | null;
  maxMs: number | null;
  meanMs: number | null;
  histogram: LatencyBucket[];
}

/** One payment as the detailed dashboard lists it. */
export interface ReportedPayment {
  id: number;
  scheme: LedgerScheme;
  /** The channel of a channel payment. */
  channelId: string | null;
  payer: string;
  tool: string;
  amount: bigint;
  network: string;
  state: PaymentState;
  txHash: string | null;
  error: string | null;
  attempts: number;
  createdAt: Date;
  updatedAt: Date;
  settlingAt: Date | null;
  settledAt: Date | null;
  /** settled_at - settling_at, when both are known. */
  settlementMs: number | null;
}

/** What settling cost, from the gas each payment's share of its transaction used (settled and failed alike). */
export interface CollectionCost {
  /** Wei: gas used × effective gas price, plus the L1 data fee where the chain charges one. */
  totalWei: bigint;
  /** Payments with a recorded cost. */
  payments: number;
  perTool: { tool: string; costWei: bigint; payments: number }[];
}

export interface PaymentReports {
  totals(): Promise<LedgerTotals>;
  /** What collecting cost for `exact` payments (each payment's share of its settlement). */
  collectionCost(): Promise<CollectionCost>;
  /** The transactions that collected channel payments (deposits our key sent, claims, settles) and their gas. */
  channelCollection(): Promise<ChannelCollectionReport>;
  /** Earned per UTC day (exact: by settlement time; channels: by charge time), oldest first, every day of the window present. */
  revenuePerDay(options: { days: number; now: Date }): Promise<DayRevenue[]>;
  settlementLatency(options: { sampleSize: number }): Promise<SettlementLatencyReport>;
  /** Payments in the given states, most recently updated first. */
  payments(options: { states: readonly PaymentState[]; limit: number }): Promise<ReportedPayment[]>;
}

/** Histogram bounds in ms: local chains settle in tens of ms, Base in a block or two (~2 s). */
export const latencyBucketBoundsMs: readonly number[] = [50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 30_000, 60_000];

const allStates: readonly PaymentState[] = ['verified', 'running', 'settling', 'settled', 'released', 'failed', 'pending', 'received', 'claimed', 'deposited'];
const schemes: readonly LedgerScheme[] = ['exact', 'batch-settlement'];
/** The states in which a row is money earned. */
const earnedStates: readonly PaymentState[] = ['settled', 'received', 'claimed'];
const DAY_MS = 86_400_000;
const settlementMs = '(EXTRACT(EPOCH FROM (settled_at - settling_at)) * 1000)::float8';

const toNumber = (value: unknown): number => Number(value);
const toNullableNumber = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const toDate = (value: unknown): Date | null => (value === null || value === undefined ? null : new Date(value as string | Date));

/** The UTC day of a date, YYYY-MM-DD. */
export function utcDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

interface PaymentRow {
  id: string | number;
  scheme: LedgerScheme;
  channel_id: string | null;
  payer: string;
  tool: string;
  amount: string;
  network: string;
  state: PaymentState;
  tx_hash: string | null;
  error: string | null;
  attempts: number;
  created_at: Date | string;
  updated_at: Date | string;
  settling_at: Date | string | null;
  settled_at: Date | string | null;
  settlement_ms: number | string | null;
}

export class SqlPaymentReports implements PaymentReports {
  constructor(private readonly db: SqlClient) {}

  async totals(): Promise<LedgerTotals> {
    const { rows } = await this.db.query<{ scheme: LedgerScheme; state: PaymentState; tool: string; amount: string; count: number }>(
      'SELECT scheme, state, tool, SUM(amount)::text AS amount, COUNT(*)::int AS count FROM payments GROUP BY scheme, state, tool',
    );
    const zero = (): AmountCount => ({ amount: 0n, count: 0 });
    const add = (a: AmountCount, b: AmountCount): AmountCount => ({ amount: a.amount + b.amount, count: a.count + b.count });
    const byState = Object.fromEntries(allStates.map((state) => [state, zero()])) as Record<PaymentState, AmountCount>;
    const perScheme = Object.fromEntries(schemes.map((scheme) => [scheme, { earned: zero(), collected: zero() }])) as Record<LedgerScheme, SchemeRevenue>;
    const perTool = new Map<string, ToolRevenue>();
    for (const row of rows) {
      const entry = { amount: BigInt(row.amount), count: toNumber(row.count) };
      const inState = byState[row.state];
      if (inState) byState[row.state] = add(inState, entry);
      if (!earnedStates.includes(row.state)) continue;
      const scheme = perScheme[row.scheme];
      if (scheme) {
        scheme.earned = add(scheme.earned, entry);
        if (row.state === 'settled') scheme.collected = add(scheme.collected, entry);
      }
      const tool = perTool.get(row.tool) ?? { tool: row.tool, ...zero(), perScheme: {} };
      perTool.set(row.tool, { ...tool, ...add(tool, entry), perScheme: { ...tool.perScheme, [row.scheme]: add(tool.perScheme[row.scheme] ?? zero(), entry) } });
    }
    const revenuePerTool = [...perTool.values()];
    revenuePerTool.sort((a, b) => (a.amount === b.amount ? a.tool.localeCompare(b.tool) : a.amount > b.amount ? -1 : 1));
    const revenue = schemes.reduce((sum, scheme) => add(sum, perScheme[scheme].earned), zero());
    return { byState, revenue, revenuePerTool, perScheme };
  }

  channelCollection(): Promise<ChannelCollectionReport> {
    return channelCollection(this.db);
  }

  async collectionCost(): Promise<CollectionCost> {
    const { rows } = await this.db.query<{ tool: string; cost: string; payments: number }>(
      `SELECT tool, SUM(gas_used * gas_price_wei + COALESCE(l1_fee_wei, 0))::text AS cost, COUNT(*)::int AS payments
       FROM payments WHERE gas_used IS NOT NULL AND gas_price_wei IS NOT NULL GROUP BY tool ORDER BY tool`,
    );
    const perTool = rows.map((r) => ({ tool: r.tool, costWei: BigInt(r.cost), payments: toNumber(r.payments) }));
    return {
      totalWei: perTool.reduce((sum, t) => sum + t.costWei, 0n),
      payments: perTool.reduce((sum, t) => sum + t.payments, 0),
      perTool,
    };
  }

  async revenuePerDay({ days, now }: { days: number; now: Date }): Promise<DayRevenue[]> {
    const windowDays = Math.max(1, Math.floor(days));
    const firstDay = new Date(Date.parse(utcDay(now)) - (windowDays - 1) * DAY_MS);
    // Each part driven by its time's index alone (the state test is in the aggregates, where the
    // planner cannot prefer the state index: PGlite runs no autovacuum, so it plans without statistics).
    const { rows } = await this.db.query<{ day: string; amount: string; count: number }>(
      `SELECT day, SUM(amount)::text AS amount, SUM(count)::int AS count FROM (
         SELECT to_char(settled_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
                COALESCE(SUM(amount) FILTER (WHERE state = 'settled' AND scheme = 'exact'), 0) AS amount,
                COUNT(*) FILTER (WHERE state = 'settled' AND scheme = 'exact') AS count
         FROM payments WHERE settled_at >= $1 GROUP BY 1
         UNION ALL
         SELECT to_char(received_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day,
                COALESCE(SUM(amount) FILTER (WHERE state IN ('received', 'claimed', 'settled')), 0) AS amount,
                COUNT(*) FILTER (WHERE state IN ('received', 'claimed', 'settled')) AS count
         FROM payments WHERE received_at >= $1 GROUP BY 1
       ) AS earned GROUP BY day`,
      [firstDay.toISOString()],
    );
    const byDay = new Map(rows.map((row) => [row.day, row]));
    return Array.from({ length: windowDays }, (_, i) => {
      const day = utcDay(new Date(firstDay.getTime() + i * DAY_MS));
      const row = byDay.get(day);
      return { day, amount: BigInt(row?.amount ?? '0'), count: toNumber(row?.count ?? 0) };
    });
  }

  async settlementLatency({ sampleSize }: { sampleSize: number }): Promise<SettlementLatencyReport> {
    // The latest rows by settled_at (walking its index), then only settled ones with both times.
    const recent = `SELECT ${settlementMs} AS ms FROM (
        SELECT state, settling_at, settled_at FROM payments WHERE settled_at IS NOT NULL ORDER BY settled_at DESC LIMIT $1
      ) AS latest WHERE state = 'settled' AND settling_at IS NOT NULL`;
    const [summary, buckets] = await Promise.all([
      this.db.query<{ sample: number; p: (number | string)[] | null; max: number | null; mean: number | null }>(
        `SELECT COUNT(*)::int AS sample,
                percentile_cont(ARRAY[0.5, 0.9, 0.99]::float8[]) WITHIN GROUP (ORDER BY ms) AS p,
                MAX(ms)::float8 AS max, AVG(ms)::float8 AS mean
         FROM (${recent}) AS recent`,
        [sampleSize],
      ),
      this.db.query<{ bucket: number; count: number }>(
        `SELECT width_bucket(ms, $2::float8[])::int AS bucket, COUNT(*)::int AS count
         FROM (${recent}) AS recent GROUP BY bucket`,
        [sampleSize, latencyBucketBoundsMs],
      ),
    ]);
    const row = summary.rows[0];
    const percentiles = row?.p ?? [];
    const counts = new Map(buckets.rows.map((b) => [toNumber(b.bucket), toNumber(b.count)]));
    const bounds = [0, ...latencyBucketBoundsMs];
    return {
      sample: toNumber(row?.sample ?? 0),
      p50Ms: toNullableNumber(percentiles[0]),
      p90Ms: toNullableNumber(percentiles[1]),
      p99Ms: toNullableNumber(percentiles[2]),
      maxMs: toNullableNumber(row?.max),
      meanMs: toNullableNumber(row?.mean),
      histogram: bounds.map((fromMs, i) => ({ fromMs, toMs: bounds[i + 1] ?? null, count: counts.get(i) ?? 0 })),
    };
  }

  async payments({ states, limit }: { states: readonly PaymentState[]; limit: number }): Promise<ReportedPayment[]> {
    // One query per state, so each walks the (state, updated_at) index backwards and stops at the limit
    // (with `state = ANY(...)` the planner sorts every row of those states instead).
    const perState = await Promise.all(
      [...new Set(states)].map((state) =>
        this.db.query<PaymentRow>(
          `SELECT id, scheme, channel_id, payer, tool, amount::text AS amount, network, state, tx_hash, error, attempts,
                  created_at, updated_at, settling_at, settled_at, ${settlementMs} AS settlement_ms
           FROM payments WHERE state = $1 ORDER BY updated_at DESC, id DESC LIMIT $2`,
          [state, limit],
        ),
      ),
    );
    const rows = perState
      .flatMap((result) => result.rows)
      .sort((a, b) => new Date(b.updated_at).getTime() - new Date(a.updated_at).getTime() || Number(b.id) - Number(a.id))
      .slice(0, limit);
    return rows.map((row) => ({
      id: toNumber(row.id),
      scheme: row.scheme,
      channelId: row.channel_id,
      payer: row.payer,
      tool: row.tool,
      amount: BigInt(row.amount),
      network: row.network,
      state: row.state,
      txHash: row.tx_hash,
      error: row.error,
      attempts: toNumber(row.attempts),
      createdAt: new Date(row.created_at),
      updatedAt: new Date(row.updated_at),
      settlingAt: toDate(row.settling_at),
      settledAt: toDate(row.settled_at),
      settlementMs: toNullableNumber(row.settlement_ms),
    }));
  }
}
