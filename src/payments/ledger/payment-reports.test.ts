// The dashboard's aggregates, over rows written with known timestamps. Expected figures are worked
// out by hand from the rows below (percentiles by linear interpolation, as PostgreSQL's
// percentile_cont defines them), not taken from the code under test.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { PaymentReports } from './payment-reports.ts';
import type { SqlClient } from './sql-client.ts';
import { SqlPaymentLedger } from './sql-payment-ledger.ts';
import { useSqlStores } from '../../../test/support/sql-stores.ts';

for (const store of useSqlStores()) {
  describe(`on ${store.name}`, () => {
    let db: SqlClient;
    let ledger: SqlPaymentLedger;
    let reports: PaymentReports;

    interface Row {
      tool: string;
      amount: number;
      state: string;
      settlingAt?: string;
      settledAt?: string;
      txHash?: string;
      error?: string;
      updatedAt: string;
    }

    const rows: Row[] = [
      { tool: 'tool_a', amount: 1000, state: 'settled', settlingAt: '2024-03-10T11:59:59.900Z', settledAt: '2024-03-10T12:00:00.000Z', txHash: '0x01', updatedAt: '2024-03-10T12:00:00Z' },
      { tool: 'tool_a', amount: 1000, state: 'settled', settlingAt: '2024-03-10T23:59:59.799Z', settledAt: '2024-03-10T23:59:59.999Z', txHash: '0x02', updatedAt: '2024-03-10T23:59:59.999Z' },
      { tool: 'tool_b', amount: 3000, state: 'settled', settlingAt: '2024-03-11T23:59:59.700Z', settledAt: '2024-03-12T00:00:00.000Z', txHash: '0x03', updatedAt: '2024-03-12T00:00:00Z' },
      { tool: 'tool_b', amount: 3000, state: 'settled', settlingAt: '2024-03-01T09:59:59.600Z', settledAt: '2024-03-01T10:00:00.000Z', txHash: '0x04', updatedAt: '2024-03-01T10:00:00Z' },
      { tool: 'tool_a', amount: 1000, state: 'failed', settlingAt: '2024-03-12T08:00:00Z', txHash: '0x05', error: 'transaction_reverted: boom', updatedAt: '2024-03-12T08:00:01Z' },
      { tool: 'tool_b', amount: 3000, state: 'pending', settlingAt: '2024-03-12T09:00:00Z', txHash: '0x06', error: 'settlement_pending: no receipt', updatedAt: '2024-03-12T09:00:15Z' },
      { tool: 'tool_c', amount: 5000, state: 'released', error: 'tool_timeout: slow', updatedAt: '2024-03-12T10:00:00Z' },
    ];

    before(async () => {
      db = await store.open();
      ledger = await SqlPaymentLedger.open(db);
      reports = ledger.reports();
    });
    after(() => ledger.close());

    let seeding: Promise<void> | undefined;
    const seeded = () => (seeding ??= seed());

    async function seed(): Promise<void> {
      for (const [i, row] of rows.entries()) {
        await db.query(
          `INSERT INTO payments (payer, nonce, tool, amount, network, resource, state, tx_hash, error, settling_at, settled_at, updated_at)
           VALUES ($1, $2, $3, $4, 'eip155:31337', 'http://localhost/x', $5, $6, $7, $8, $9, $10)`,
          [`0xpayer${i}`, `0x${i}`, row.tool, row.amount, row.state, row.txHash ?? null, row.error ?? null, row.settlingAt ?? null, row.settledAt ?? null, row.updatedAt],
        );
      }
    }

    test('an empty ledger reports zeros, not nulls', async () => {
      const totals = await reports.totals();
      assert.deepEqual(totals.revenue, { amount: 0n, count: 0 });
      assert.deepEqual(totals.revenuePerTool, []);
      assert.deepEqual(totals.byState.settled, { amount: 0n, count: 0 });
      assert.deepEqual(await reports.revenuePerDay({ days: 1, now: new Date('2024-03-12T15:00:00Z') }), [{ day: '2024-03-12', amount: 0n, count: 0 }]);
      const latency = await reports.settlementLatency({ sampleSize: 100 });
      assert.equal(latency.sample, 0);
      assert.equal(latency.p50Ms, null);
      assert.equal(latency.maxMs, null);
      assert.ok(latency.histogram.every((b) => b.count === 0));
      assert.deepEqual(await reports.payments({ states: ['settled'], limit: 5 }), []);
    });

    test('revenue counts settled payments only: total and per tool, highest first', async () => {
      await seeded();
      const totals = await reports.totals();
      assert.deepEqual(totals.revenue, { amount: 8000n, count: 4 });
      assert.deepEqual(totals.revenuePerTool, [
        { tool: 'tool_b', amount: 6000n, count: 2, perScheme: { exact: { amount: 6000n, count: 2 } } },
        { tool: 'tool_a', amount: 2000n, count: 2, perScheme: { exact: { amount: 2000n, count: 2 } } },
      ]);
      assert.deepEqual(totals.perScheme.exact, { earned: { amount: 8000n, count: 4 }, collected: { amount: 8000n, count: 4 } });
      assert.deepEqual(totals.perScheme['batch-settlement'], { earned: { amount: 0n, count: 0 }, collected: { amount: 0n, count: 0 } });
    });

    test('revenue per UTC day covers every day of the window, oldest first, by settlement time', async () => {
      await seeded();
      const perDay = await reports.revenuePerDay({ days: 7, now: new Date('2024-03-12T15:00:00Z') });
      assert.deepEqual(perDay, [
        { day: '2024-03-06', amount: 0n, count: 0 },
        { day: '2024-03-07', amount: 0n, count: 0 },
        { day: '2024-03-08', amount: 0n, count: 0 },
        { day: '2024-03-09', amount: 0n, count: 0 },
        { day: '2024-03-10', amount: 2000n, count: 2 }, // 12:00 and 23:59:59.999 UTC
        { day: '2024-03-11', amount: 0n, count: 0 },
        { day: '2024-03-12', amount: 3000n, count: 1 }, // exactly midnight belongs to the new day
      ]);
    });

    test('settlement latency: percentiles, max and mean over settled_at - settling_at', async () => {
      await seeded();
      // Latencies of the settled rows: 100, 200, 300, 400 ms.
      const latency = await reports.settlementLatency({ sampleSize: 1000 });
      assert.equal(latency.sample, 4);
      assert.equal(latency.p50Ms, 250); // halfway between 200 and 300
      assert.ok(Math.abs((latency.p90Ms ?? 0) - 370) < 1e-6); // position 2.7: 300 + 0.7 * 100
      assert.ok(Math.abs((latency.p99Ms ?? 0) - 397) < 1e-6); // position 2.97
      assert.equal(latency.maxMs, 400);
      assert.equal(latency.meanMs, 250);
    });

    test('settlement latency histogram: 100 and 200 ms in [100, 250), 300 and 400 ms in [250, 500)', async () => {
      await seeded();
      const { histogram } = await reports.settlementLatency({ sampleSize: 1000 });
      assert.deepEqual(histogram[0], { fromMs: 0, toMs: 50, count: 0 });
      assert.deepEqual(histogram.find((b) => b.fromMs === 100), { fromMs: 100, toMs: 250, count: 2 });
      assert.deepEqual(histogram.find((b) => b.fromMs === 250), { fromMs: 250, toMs: 500, count: 2 });
      assert.equal(histogram.at(-1)?.toMs, null, 'the last bucket is open-ended');
      assert.equal(histogram.reduce((sum, b) => sum + b.count, 0), 4);
    });

    test('settlement latency is over the most recent settlements only', async () => {
      await seeded();
      // The three latest settlements: 300 (03-12), 200 (03-10 late), 100 (03-10 noon).
      const latency = await reports.settlementLatency({ sampleSize: 3 });
      assert.equal(latency.sample, 3);
      assert.equal(latency.p50Ms, 200);
      assert.equal(latency.maxMs, 300);
    });

    test('payments by state: every state is present, with count and amount', async () => {
      await seeded();
      const states = (await reports.totals()).byState;
      assert.deepEqual(states.settled, { amount: 8000n, count: 4 });
      assert.deepEqual(states.failed, { amount: 1000n, count: 1 });
      assert.deepEqual(states.pending, { amount: 3000n, count: 1 });
      assert.deepEqual(states.released, { amount: 5000n, count: 1 });
      assert.deepEqual(states.running, { amount: 0n, count: 0 });
      assert.deepEqual(states.received, { amount: 0n, count: 0 });
      assert.equal(Object.keys(states).length, 10);
    });

    test('payments in given states come most recently updated first, with their tx hash and error', async () => {
      await seeded();
      const listed = await reports.payments({ states: ['pending', 'failed'], limit: 10 });
      assert.deepEqual(listed.map((p) => [p.state, p.tool, p.txHash, p.amount]), [
        ['pending', 'tool_b', '0x06', 3000n],
        ['failed', 'tool_a', '0x05', 1000n],
      ]);
      assert.equal(listed[1]?.error, 'transaction_reverted: boom');
      assert.equal(listed[1]?.settledAt, null);
      assert.equal(listed[1]?.settlementMs, null);
      const settled = await reports.payments({ states: ['settled'], limit: 2 });
      assert.deepEqual(settled.map((p) => p.txHash), ['0x03', '0x02']);
      assert.equal(settled[0]?.settlementMs, 300);
      assert.equal(settled[0]?.settledAt?.toISOString(), '2024-03-12T00:00:00.000Z');
    });
  });
}
