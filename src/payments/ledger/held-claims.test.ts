// A collector pass's claims held back from the rows, on both stores: a row changes state once
// (received → settled when the pass's settle confirms, received → claimed when it does not), a claim
// made after the settle was sent is never marked settled by it, and rows a dead pass left behind
// their channel's claimed total are claimed by the next.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SqlChannelStorage } from '../channels/sql-channel-storage.ts';
import { ChannelPayments } from './channel-payments.ts';
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

    /** A channel charged `calls` times, a row each, as the scheme charges vouchers. */
    async function charged(n: number, calls: number): Promise<void> {
      await storage.updateChannel(channelId(n), () => bareChannel(channelId(n)));
      for (let i = 1n; i <= BigInt(calls); i++) {
        const expectation = payments.expect({ channelId: channelId(n), cumulative: i * PRICE, tool: 't', payer: bareChannel(channelId(n)).channelConfig.payer, network: NETWORK, resource: 'r', amount: PRICE });
        try {
          await storage.updateChannel(channelId(n), (c) => c && { ...c, chargedCumulativeAmount: (i * PRICE).toString() });
          assert.ok(expectation.recorded());
        } finally {
          expectation.done();
        }
      }
    }
    const claim = (n: number, total: bigint) => storage.updateChannel(channelId(n), (c) => c && { ...c, totalClaimed: total.toString() });
    const rowsOf = async (n: number) =>
      (await db.query<{ state: string; claimed: boolean; settled: boolean }>(
        `SELECT state, claimed_at IS NOT NULL AS claimed, settled_at IS NOT NULL AS settled FROM payments WHERE channel_id = $1 ORDER BY channel_cumulative`, [channelId(n)],
      )).rows;
    const states = async (n: number) => (await rowsOf(n)).map((r) => r.state);

    test('held, a claim leaves its rows received; the settle that confirms turns them settled in one change, with both times', async () => {
      await charged(1, 3);
      const held = payments.holdClaims();
      assert.ok(held);
      await claim(1, 2n * PRICE);
      assert.deepEqual(await states(1), ['received', 'received', 'received'], 'not written at the claim');
      const taken = held.take();
      assert.deepEqual([...taken], [[channelId(1).toLowerCase(), 2n * PRICE]]);
      assert.equal(await held.settled(taken, 1), 2, 'in chunks of one, every covered row');
      await held.release();
      assert.deepEqual(await rowsOf(1), [
        { state: 'settled', claimed: true, settled: true },
        { state: 'settled', claimed: true, settled: true },
        { state: 'received', claimed: false, settled: false },
      ]);
      await claim(1, 3n * PRICE);
      assert.deepEqual(await states(1), ['settled', 'settled', 'claimed'], 'released: a claim marks its rows at once again');
    });

    test('a settle that does not confirm leaves the taken claims claimed; a claim held after the settle was sent is claimed, not settled', async () => {
      await charged(2, 2);
      await charged(3, 2);
      const held = payments.holdClaims();
      assert.ok(held);
      await claim(2, 2n * PRICE);
      const taken = held.take();
      await claim(3, 2n * PRICE);
      await held.release(taken);
      assert.deepEqual(await states(2), ['claimed', 'claimed']);
      assert.deepEqual(await states(3), ['claimed', 'claimed']);
    });

    test('one hold at a time: a second pass gets none and the open hold takes the claims', async () => {
      await charged(4, 1);
      const first = payments.holdClaims();
      assert.ok(first);
      assert.equal(payments.holdClaims(), undefined);
      await claim(4, PRICE);
      assert.deepEqual([...first.take()], [[channelId(4).toLowerCase(), PRICE]]);
      await first.release();
      const second = payments.holdClaims();
      assert.ok(second, 'a new hold once the first is released');
      await second.release();
    });

    test('rows a dead pass left held, behind their channel\'s claimed total, are claimed by the next pass; rows ahead stay received', async () => {
      const other = new ChannelPayments(db);
      const otherStorage = new SqlChannelStorage(db, { network: NETWORK, observer: (tx, before, after) => other.observe(tx, before, after) });
      await charged(5, 3);
      assert.ok(other.holdClaims(), 'a pass that will die: its hold is never released');
      await otherStorage.updateChannel(channelId(5), (c) => c && { ...c, totalClaimed: (2n * PRICE).toString() });
      assert.deepEqual(await states(5), ['received', 'received', 'received']);
      assert.equal(await payments.claimBehind('eip155:1'), 0, 'another network');
      assert.ok((await payments.claimBehind(NETWORK)) >= 2);
      assert.deepEqual(await states(5), ['claimed', 'claimed', 'received']);
      assert.equal(await payments.claimBehind(NETWORK), 0, 'nothing left behind');
    });
  });
}
