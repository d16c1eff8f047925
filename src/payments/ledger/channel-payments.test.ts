// Channel calls as ledger rows, written inside the channel storage's own transaction, on both stores:
// a charge and its row together or neither, the rows following the channel's claimed total and a
// confirmed settle, the exact reconciler never seeing them, and the reports counting them honestly.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Channel } from '@x402/evm/batch-settlement/server';
import { SqlChannelStorage } from '../channels/sql-channel-storage.ts';
import { ChannelPayments } from './channel-payments.ts';
import type { ExpectedCharge } from './channel-payments.ts';
import type { SqlClient } from './sql-client.ts';
import { SqlPaymentLedger } from './sql-payment-ledger.ts';
import { bareChannel, channelId, NETWORK } from '../../../test/support/channel-records.ts';
import { useSqlStores } from '../../../test/support/sql-stores.ts';

const PRICE = 1_000n;

for (const store of useSqlStores()) {
  describe(`on ${store.name}`, () => {
    let db: SqlClient;
    let ledger: SqlPaymentLedger;
    let payments: ChannelPayments;
    let storage: SqlChannelStorage;
    before(async () => {
      db = await store.open();
      ledger = await SqlPaymentLedger.open(db);
      payments = new ChannelPayments(db);
      storage = new SqlChannelStorage(db, { network: NETWORK, observer: (tx, before, after) => payments.observe(tx, before, after) });
    });
    after(() => ledger.close());

    const charge = (n: number, cumulative: bigint, extra: Partial<ExpectedCharge> = {}): ExpectedCharge => ({
      channelId: channelId(n), cumulative, tool: 'tool_a', payer: bareChannel(channelId(n)).channelConfig.payer, network: NETWORK,
      resource: 'http://localhost/a', amount: PRICE, ...extra,
    });
    /** What the SDK's onBeforeSettle does for a voucher: the charged total rises by the price, in one update. */
    async function chargeVoucher(n: number, expected: ExpectedCharge) {
      const expectation = payments.expect(expected);
      try {
        await storage.updateChannel(channelId(n), (current) => current && { ...current, chargedCumulativeAmount: (BigInt(current.chargedCumulativeAmount) + PRICE).toString() });
        return expectation.recorded();
      } finally {
        expectation.done();
      }
    }
    const rowsOf = async (n: number) =>
      (await db.query<{ state: string; amount: string; nonce: string; scheme: string; result: string | null }>(
        `SELECT state, amount::text AS amount, nonce, scheme, result FROM payments WHERE channel_id = $1 ORDER BY id`, [channelId(n)],
      )).rows;

    test('a voucher charge writes its row in the same transaction: received, the channel and cumulative amount as its key', async () => {
      await storage.updateChannel(channelId(1), () => bareChannel(channelId(1), { balance: '100000' }));
      const recorded = await chargeVoucher(1, charge(1, PRICE, { result: '{"echo":"a"}' }));
      assert.ok(recorded?.callId);
      assert.equal(recorded.depositId, undefined);
      assert.deepEqual(await rowsOf(1), [{ state: 'received', amount: '1000', nonce: `${channelId(1)}:1000`, scheme: 'batch-settlement', result: '{"echo":"a"}' }]);
      const record = await ledger.find(bareChannel(channelId(1)).channelConfig.payer, `${channelId(1)}:1000`);
      assert.equal(record?.channelCumulative, 1000n);
      const response = JSON.parse(record?.paymentResponse ?? '{}') as { extra: { chargedAmount: string; channelState: { chargedCumulativeAmount: string; balance: string } } };
      assert.equal(response.extra.chargedAmount, '1000');
      assert.deepEqual([response.extra.channelState.chargedCumulativeAmount, response.extra.channelState.balance], ['1000', '100000']);
    });

    test('a row that cannot be written rolls the charge back: the channel is not charged', async () => {
      await storage.updateChannel(channelId(2), () => bareChannel(channelId(2)));
      // A row already holds this channel and amount (by SQL): the insert finds no released row to take over and throws.
      await db.query(`INSERT INTO payments (payer, nonce, tool, amount, network, resource, state) VALUES ($1, $2, 't', 1, $3, 'r', 'failed')`,
        [bareChannel(channelId(2)).channelConfig.payer.toLowerCase(), `${channelId(2)}:1000`, NETWORK]);
      await assert.rejects(chargeVoucher(2, charge(2, PRICE)), /already has a ledger row/);
      assert.equal((await storage.get(channelId(2)))?.chargedCumulativeAmount, '0', 'nothing charged');
    });

    test('a charge not announced by the scheme writes no row; a deposit writes its own row, never revenue', async () => {
      await storage.updateChannel(channelId(3), () => bareChannel(channelId(3)));
      assert.equal(await chargeVoucher(3, charge(3, 5n * PRICE)), undefined, 'expected at another amount: not this charge');
      assert.deepEqual(await rowsOf(3), []);
      const recorded = await chargeVoucher(3, charge(3, 2n * PRICE, { deposit: 100_000n }));
      assert.ok(recorded?.depositId);
      assert.deepEqual((await rowsOf(3)).map((r) => [r.state, r.amount]), [['received', '1000'], ['deposited', '100000']]);
      const unkeyed = await ledger.find(bareChannel(channelId(3)).channelConfig.payer, `${channelId(3)}:2000`);
      assert.equal(unkeyed?.paymentResponse, null, 'no PAYMENT-RESPONSE kept for a call no retry can ask for');
    });

    test('a keyed attempt locked at admission turns received at its charge; one released is taken over by the next charge', async () => {
      await storage.updateChannel(channelId(4), () => bareChannel(channelId(4)));
      const payer = bareChannel(channelId(4)).channelConfig.payer;
      const lock = await ledger.lock({ payer, nonce: `${channelId(4)}:1000`, tool: 'tool_a', amount: PRICE, network: NETWORK, resource: 'r',
        paymentIdentifier: 'pay_0123456789abcdef', requestFingerprint: 'f', scheme: 'batch-settlement', channelId: channelId(4), channelCumulative: PRICE });
      assert.ok(lock.locked);
      await ledger.transition(lock.id, 'released', { error: 'tool failed' });
      const recorded = await chargeVoucher(4, charge(4, PRICE));
      assert.equal(recorded?.callId, lock.id, 'the released row is taken over');
      assert.deepEqual((await rowsOf(4)).map((r) => r.state), ['received']);

      const second = await ledger.lock({ payer, nonce: `${channelId(4)}:2000`, tool: 'tool_a', amount: PRICE, network: NETWORK, resource: 'r',
        paymentIdentifier: 'pay_fedcba9876543210', requestFingerprint: 'g', scheme: 'batch-settlement', channelId: channelId(4), channelCumulative: 2n * PRICE });
      assert.ok(second.locked);
      assert.deepEqual(await ledger.inStates(['running']), [], 'the exact reconciler never sees channel rows');
      assert.equal((await chargeVoucher(4, charge(4, 2n * PRICE, { paymentId: second.id, result: '1' })))?.callId, second.id);
      assert.equal((await ledger.findByIdentifier('pay_fedcba9876543210'))?.state, 'received');
    });

    test('claimed totals claim the rows they cover; a confirmed settle collects the rows claimed before it was sent', async () => {
      await storage.updateChannel(channelId(5), () => bareChannel(channelId(5)));
      for (let i = 1n; i <= 3n; i++) await chargeVoucher(5, charge(5, i * PRICE));
      await storage.updateChannel(channelId(5), (c) => c && { ...c, totalClaimed: '2000' });
      assert.deepEqual((await rowsOf(5)).map((r) => r.state), ['claimed', 'claimed', 'received']);
      const sentAt = await payments.clock();
      await storage.updateChannel(channelId(5), (c) => c && { ...c, totalClaimed: '3000' });
      await db.query(`UPDATE payments SET claimed_at = now() + interval '1 minute' WHERE channel_id = $1 AND channel_cumulative = 3000`, [channelId(5)]);
      assert.ok((await payments.settled(NETWORK, sentAt)) >= 2);
      assert.deepEqual((await rowsOf(5)).map((r) => r.state), ['settled', 'settled', 'claimed'], 'claimed after the settle was sent: not in it');
      assert.equal(await payments.settled('eip155:1', new Date(Date.now() + 3_600_000)), 0, 'another network');
    });

    test('a refunded channel (its record deleted by the SDK) has its charged rows claimed', async () => {
      await storage.updateChannel(channelId(6), () => bareChannel(channelId(6)));
      await chargeVoucher(6, charge(6, PRICE));
      await storage.updateChannel(channelId(6), () => undefined);
      assert.deepEqual((await rowsOf(6)).map((r) => r.state), ['claimed']);
    });

    test('a crashed run\'s running channel rows are released at start; results are forgotten from their charge time', async () => {
      await storage.updateChannel(channelId(7), () => bareChannel(channelId(7)));
      const payer = bareChannel(channelId(7)).channelConfig.payer;
      const lock = await ledger.lock({ payer, nonce: `${channelId(7)}:1000`, tool: 't', amount: PRICE, network: NETWORK, resource: 'r', instance: 'dead',
        paymentIdentifier: 'pay_orphan_0123456789', requestFingerprint: 'f', scheme: 'batch-settlement', channelId: channelId(7), channelCumulative: PRICE });
      assert.ok(lock.locked);
      assert.equal(await payments.releaseOrphaned({ instance: 'me', live: new Set(['dead']) }), 0, 'a live instance keeps its call');
      assert.equal(await payments.releaseOrphaned({ instance: 'me', live: new Set() }), 1);
      assert.equal(await ledger.findByIdentifier('pay_orphan_0123456789'), undefined);
      const stuck = await ledger.lock({ payer, nonce: `${channelId(7)}:9000`, tool: 't', amount: PRICE, network: NETWORK, resource: 'r', instance: 'me',
        paymentIdentifier: 'pay_stuck_0123456789', requestFingerprint: 'f', scheme: 'batch-settlement', channelId: channelId(7), channelCumulative: 9n * PRICE });
      assert.ok(stuck.locked);
      assert.equal(await payments.releaseAbandoned(new Date(Date.now() - 60_000)), 0, 'a call running now is left alone');
      assert.equal(await payments.releaseAbandoned(new Date(Date.now() + 60_000)), 1);

      await chargeVoucher(7, charge(7, PRICE, { result: '{"kept":true}' }));
      assert.equal(await ledger.forgetResults(new Date(Date.now() - 60_000)), 0, 'charged a moment ago: kept');
      assert.ok((await ledger.forgetResults(new Date(Date.now() + 60_000))) >= 1);
      assert.deepEqual((await rowsOf(7)).map((r) => [r.state, r.result]), [['received', null], ['released', null]]);
    });

    test('reports: channel calls are earned when charged and collected when settled; deposits never revenue; collection transactions by step', async () => {
      const reports = ledger.reports();
      const totals = await reports.totals();
      const channel = totals.perScheme['batch-settlement'];
      const callRows = (await db.query<{ state: string; n: number; amount: string }>(
        `SELECT state, COUNT(*)::int AS n, SUM(amount)::text AS amount FROM payments WHERE scheme = 'batch-settlement' AND state IN ('received', 'claimed', 'settled') GROUP BY state`,
      )).rows;
      const earned = callRows.reduce((sum, r) => sum + BigInt(r.amount), 0n);
      assert.deepEqual(channel.earned, { amount: earned, count: callRows.reduce((sum, r) => sum + r.n, 0) });
      assert.deepEqual(channel.collected, { amount: 2n * PRICE, count: 2 }, 'the two settled rows of channel 5');
      assert.equal(totals.byState.deposited.amount, 100_000n);
      assert.equal(totals.revenue.amount, earned + totals.perScheme.exact.earned.amount, 'the deposit is not revenue');
      assert.deepEqual(totals.revenuePerTool.find((t) => t.tool === 'tool_a')?.perScheme['batch-settlement'], channel.earned, 'every channel call here was tool_a');
      // Two days: a run that crosses midnight UTC charged some of its calls yesterday.
      const lastTwoDays = await reports.revenuePerDay({ days: 2, now: new Date() });
      assert.equal(lastTwoDays.reduce((sum, day) => sum + day.amount, 0n), totals.revenue.amount, 'channel calls by the day they were charged');

      await payments.recordCollection(NETWORK, [
        { step: 'claim', hash: '0xC1', amount: 3_000n, gas: 100_000n, feeWei: 5_000_000_000_000n },
        { step: 'settle', hash: '0xS1', amount: 3_000n, gas: 56_840n, feeWei: 2_842_000_000_000n },
        { step: 'deposit', hash: '0xD1', amount: 100_000n, gas: 140_592n, feeWei: 7_029_600_000_000n },
        { step: 'refund', hash: '0xR1', amount: 94_000n, gas: 70_000n, feeWei: 3_500_000_000_000n },
      ]);
      await payments.recordCollection(NETWORK, [{ step: 'claim', hash: '0xc1', amount: 3_000n, gas: 100_000n, feeWei: 5_000_000_000_000n }]);
      const collection = await reports.channelCollection();
      assert.deepEqual(collection.claim, { transactions: 1, amount: 3_000n, gas: 100_000n, feeWei: 5_000_000_000_000n }, 'a hash seen twice counts once');
      assert.deepEqual(collection.settle.gas, 56_840n);
      assert.deepEqual(collection.deposit.transactions, 1);
      assert.deepEqual(collection.refund, { transactions: 1, amount: 94_000n, gas: 70_000n, feeWei: 3_500_000_000_000n }, 'a refund: what went back to the payer, and its gas');
    });

    test('a group commit\'s charges: the plain calls\' rows in one statement, a keyed call\'s row its own, a released row taken over; one conflicting row fails the group, nothing charged', async () => {
      const grouped = new SqlChannelStorage(db, {
        network: NETWORK,
        observer: (tx, b, a) => payments.observe(tx, b, a),
        chargeObserver: (tx, charged) => payments.observeCharges(tx, charged),
      });
      const ns = [20, 21, 22, 23];
      for (const n of ns) {
        await grouped.updateChannel(channelId(n), () => bareChannel(channelId(n), { balance: '100000', onchainSyncedAt: Date.now() }));
      }
      const payer = (n: number) => bareChannel(channelId(n)).channelConfig.payer.toLowerCase();
      // Channel 21's voucher was taken by a keyed attempt whose row is running; channel 22's by an attempt that released its row.
      const locked = await ledger.lock({ payer: payer(21), nonce: `${channelId(21)}:1000`, tool: 'tool_a', amount: PRICE, network: NETWORK, resource: 'r', paymentIdentifier: 'pay_group_21_0000000', requestFingerprint: 'f', scheme: 'batch-settlement', channelId: channelId(21), channelCumulative: 1000n });
      assert.equal(locked.locked, true);
      await db.query(`INSERT INTO payments (payer, nonce, tool, amount, network, resource, state, scheme, channel_id, channel_cumulative) VALUES ($1, $2, 't', 1000, $3, 'r', 'released', 'batch-settlement', $4, 1000)`, [payer(22), `${channelId(22)}:1000`, NETWORK, channelId(22)]);

      const commitAll = async (extra: (n: number) => Partial<ExpectedCharge>) => {
        const expectations = ns.map((n) => payments.expect(charge(n, PRICE, extra(n))));
        try {
          const charged = await Promise.allSettled(ns.map((n) => grouped.commitVoucher({ channelId: channelId(n), record: bareChannel(channelId(n)), cumulative: PRICE, price: PRICE, signature: '0xsig', nowMs: Date.now() })));
          return { charged, recorded: expectations.map((e) => e.recorded()) };
        } finally {
          for (const e of expectations) e.done();
        }
      };
      const { charged, recorded } = await commitAll((n) => (n === 21 && locked.locked ? { paymentId: locked.id, result: '{"ok":1}' } : {}));
      assert.deepEqual(charged.map((c) => c.status === 'fulfilled' && c.value?.after.chargedCumulativeAmount), ['1000', '1000', '1000', '1000']);
      assert.ok(recorded.every((r) => r?.callId), 'every charge has its row');
      for (const n of ns) assert.deepEqual((await rowsOf(n)).map((r) => [r.state, r.amount, r.nonce]), [['received', '1000', `${channelId(n)}:1000`]], `channel ${n}`);
      assert.equal((await rowsOf(21))[0]?.result, '{"ok":1}', 'the keyed call keeps its result for a retry');

      // Next round: channel 23's row exists already (by SQL), not released: its charge fails alone.
      await db.query(`INSERT INTO payments (payer, nonce, tool, amount, network, resource, state) VALUES ($1, $2, 't', 1, $3, 'r', 'failed')`, [payer(23), `${channelId(23)}:2000`, NETWORK]);
      const expectations = ns.map((n) => payments.expect(charge(n, 2n * PRICE)));
      const second = await Promise.allSettled(ns.map((n) => grouped.commitVoucher({ channelId: channelId(n), record: bareChannel(channelId(n)), cumulative: 2n * PRICE, price: PRICE, signature: '0xsig', nowMs: Date.now() })));
      for (const e of expectations) e.done();
      assert.deepEqual(second.map((c) => c.status), ['fulfilled', 'fulfilled', 'fulfilled', 'rejected']);
      const totals = await Promise.all(ns.map(async (n) => (await grouped.get(channelId(n)))?.chargedCumulativeAmount));
      assert.deepEqual(totals, ['2000', '2000', '2000', '1000'], 'the others charged; channel 23 not');
    });

    test('a confirmed settle collects its rows in chunks, every one of them, and none claimed after it was sent', async () => {
      await storage.updateChannel(channelId(8), () => bareChannel(channelId(8), { balance: '100000' }));
      for (let i = 1n; i <= 7n; i++) await chargeVoucher(8, charge(8, i * PRICE));
      await storage.updateChannel(channelId(8), (c) => c && { ...c, totalClaimed: '7000' });
      await db.query(`UPDATE payments SET claimed_at = now() + interval '1 minute' WHERE channel_id = $1 AND channel_cumulative = 7000`, [channelId(8)]);
      const sentAt = await payments.clock();
      const due = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM payments WHERE network = $1 AND state = 'claimed' AND claimed_at <= $2`, [NETWORK, sentAt])).rows[0]!.n;
      assert.ok(due >= 6, 'six rows of this channel, and whatever earlier tests left claimed');
      // Chunks of 2: several statements, the last one short or empty.
      assert.equal(await payments.settled(NETWORK, sentAt, 2), due);
      assert.deepEqual((await rowsOf(8)).map((r) => r.state), ['settled', 'settled', 'settled', 'settled', 'settled', 'settled', 'claimed']);
      assert.equal(await payments.settled(NETWORK, sentAt, 2), 0, 'nothing left to collect for that settle');
    });
  });
}
