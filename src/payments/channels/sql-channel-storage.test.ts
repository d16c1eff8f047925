import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import type { Channel, ChannelStorage } from '@x402/evm/batch-settlement/server';
import { SqlChannelClaims } from './channel-claims.ts';
import { SqlChannelStorage } from './sql-channel-storage.ts';
import { chargeVoucherRows, GROUP_CHARGE } from './voucher-statements.ts';
import type { SqlClient, SqlQueries } from '../ledger/sql-client.ts';
import { bareChannel, channelId, fullChannel, NETWORK } from '../../../test/support/channel-records.ts';
import { useSqlStores } from '../../../test/support/sql-stores.ts';

/** The SDK's commit step, reduced: add one to the charged total; the first call creates the channel. */
const increment = (id: string) => (current: Channel | undefined): Channel => {
  const base = current ?? bareChannel(id);
  return { ...base, chargedCumulativeAmount: (BigInt(base.chargedCumulativeAmount) + 1n).toString() };
};

/** The SDK's reservation step, reduced: one request in flight per channel. */
function reserve(pendingId: string, now: number) {
  let outcome: 'reserved' | 'busy' = 'busy';
  const callback = (current: Channel | undefined): Channel | undefined => {
    if (!current || (current.pendingRequest && current.pendingRequest.expiresAt > now)) return current;
    outcome = 'reserved';
    return { ...current, pendingRequest: { pendingId, signedMaxClaimable: '1', expiresAt: now + 60_000 } };
  };
  return { callback, outcome: () => outcome };
}

for (const store of useSqlStores()) {
  describe(`on ${store.name}`, () => {
    let db: SqlClient;
    let storage: SqlChannelStorage;
    let ids = 0;
    const nextId = () => channelId(++ids);
    before(async () => {
      db = await store.open();
      storage = await SqlChannelStorage.open(db, { network: NETWORK });
    });
    after(() => db.close());

    test('a full record comes back exactly: every field, amounts beyond 2^64 as exact strings', async () => {
      const record = fullChannel(nextId());
      const result = await storage.updateChannel(record.channelId, () => record);
      assert.deepEqual(result, { channel: record, status: 'updated' });
      assert.deepEqual(await storage.get(record.channelId), record);
    });

    test('optional fields left out stay absent; set to undefined (as the SDK clears them) they come back absent', async () => {
      const bare = bareChannel(nextId());
      await storage.updateChannel(bare.channelId, () => bare);
      assert.deepEqual(await storage.get(bare.channelId), bare);

      const full = fullChannel(nextId());
      await storage.updateChannel(full.channelId, () => full);
      const cleared = await storage.updateChannel(full.channelId, (current) => ({ ...current!, pendingRequest: undefined, onchainSyncedAt: undefined }));
      const { pendingRequest: _p, onchainSyncedAt: _o, ...expected } = full;
      assert.deepEqual(cleared.channel, expected);
      assert.deepEqual(await storage.get(full.channelId), expected);
      assert.equal('pendingRequest' in cleared.channel!, false);
    });

    test('statuses: a callback returning current is unchanged, a record is updated, undefined deletes', async () => {
      const id = nextId();
      assert.deepEqual(await storage.updateChannel(id, (current) => current), { channel: undefined, status: 'unchanged' });
      assert.deepEqual(await storage.updateChannel(id, () => undefined), { channel: undefined, status: 'unchanged' }, 'deleting nothing changes nothing');
      assert.equal(await storage.get(id), undefined, 'no row was created');

      const created = await storage.updateChannel(id, () => bareChannel(id));
      assert.equal(created.status, 'updated');
      const seen: (Channel | undefined)[] = [];
      const kept = await storage.updateChannel(id, (current) => (seen.push(current), current));
      assert.equal(kept.status, 'unchanged');
      assert.deepEqual(seen, [bareChannel(id)], 'the callback saw the stored record');
      assert.deepEqual(kept.channel, bareChannel(id));

      assert.equal((await storage.updateChannel(id, (c) => ({ ...c!, balance: '2000000' }))).status, 'updated');
      assert.equal((await storage.get(id))?.balance, '2000000');

      assert.deepEqual(await storage.updateChannel(id, () => undefined), { channel: undefined, status: 'deleted' });
      assert.equal(await storage.get(id), undefined);
      assert.equal((await storage.list()).some((c) => c.channelId === id), false);
    });

    test("answers a script of updates exactly as the SDK's in-memory storage does", async () => {
      const id = nextId();
      const full = fullChannel(id);
      const script: ((current: Channel | undefined) => Channel | undefined)[] = [
        (c) => c,
        () => undefined,
        () => full,
        (c) => c,
        (c) => ({ ...c!, pendingRequest: undefined, chargedCumulativeAmount: '340282366920938463463374607431768211200' }),
        (c) => ({ ...c!, onchainSyncedAt: undefined }),
        () => undefined,
        () => undefined,
        () => bareChannel(id),
      ];
      const run = async (s: ChannelStorage) => {
        const results = [];
        for (const step of script) results.push(await s.updateChannel(id, step), await s.get(id));
        return results;
      };
      // The SDK's record keeps keys set to undefined; ours drops them: compare what a JSON copy keeps.
      const plain = (value: unknown) => JSON.parse(JSON.stringify(value ?? null)) as unknown;
      assert.deepEqual(plain(await run(storage)), plain(await run(new InMemoryChannelStorage())));
    });

    test('a callback that throws leaves nothing written, and the error reaches the caller', async () => {
      const id = nextId();
      await assert.rejects(storage.updateChannel(id, () => { throw new Error('boom'); }), /boom/);
      assert.equal(await storage.get(id), undefined);
    });

    test('ids are one key whatever their case; a malformed id or a record of another channel is refused', async () => {
      const id = `0x${'c'.repeat(63)}${(++ids % 10).toString()}`;
      await storage.updateChannel(id.toUpperCase().replace('0X', '0x'), () => bareChannel(id));
      assert.deepEqual(await storage.get(id), bareChannel(id));
      await assert.rejects(storage.get('0x1234'), /channel_id/);
      await assert.rejects(storage.updateChannel('not-an-id', () => undefined), /channel_id/);
      await assert.rejects(storage.updateChannel(nextId(), () => bareChannel(channelId(999_999))), /returned the record of channel/);
    });

    test("list is this network's channels, ordered by id; another network's storage sees none of them", async () => {
      const mine = await storage.list();
      assert.ok(mine.length > 0);
      assert.deepEqual(mine.map((c) => c.channelId), mine.map((c) => c.channelId).sort());
      const other = new SqlChannelStorage(db, { network: 'eip155:84532' });
      assert.deepEqual(await other.list(), []);
      assert.equal(await other.get(mine[0]!.channelId), undefined);
      await assert.rejects(other.updateChannel(mine[0]!.channelId, (c) => c), /belongs to eip155:8453/);
    });

    test('a confirmed claim is not undone by a write of an older claimed total', async () => {
      const id = nextId();
      await storage.updateChannel(id, () => bareChannel(id, { chargedCumulativeAmount: '500', totalClaimed: '0' }));
      const staleRead = await storage.get(id);
      await new SqlChannelClaims(db, NETWORK).recordClaimed([{ channelId: id, newTotalClaimed: 500n }]);
      const written = await storage.updateChannel(id, () => ({ ...staleRead!, balance: '9' }));
      assert.equal(written.channel?.totalClaimed, '500', 'the result reports what is stored');
      assert.equal((await storage.get(id))?.totalClaimed, '500');
      assert.equal((await storage.get(id))?.balance, '9', 'the rest of the write stands');
    });

    test('100 concurrent increments from one instance, starting with no row: none lost, one row', async () => {
      const id = nextId();
      const results = await Promise.all(Array.from({ length: 100 }, () => storage.updateChannel(id, increment(id))));
      assert.ok(results.every((r) => r.status === 'updated'));
      assert.equal((await storage.get(id))?.chargedCumulativeAmount, '100');
      const totals = results.map((r) => Number(r.channel?.chargedCumulativeAmount)).sort((a, b) => a - b);
      assert.deepEqual(totals, Array.from({ length: 100 }, (_, i) => i + 1), 'each update saw the one before it');
    });

    test('of concurrent reservations on one channel exactly one holds the pending request; it frees the channel on commit', async () => {
      const id = nextId();
      await storage.updateChannel(id, () => bareChannel(id));
      const now = Date.now();
      const attempts = Array.from({ length: 20 }, (_, i) => reserve(`p${i}`, now));
      await Promise.all(attempts.map((a) => storage.updateChannel(id, a.callback)));
      assert.equal(attempts.filter((a) => a.outcome() === 'reserved').length, 1);
      const holder = (await storage.get(id))?.pendingRequest?.pendingId;
      assert.equal(holder, `p${attempts.findIndex((a) => a.outcome() === 'reserved')}`);

      await storage.updateChannel(id, (c) => ({ ...increment(id)(c), pendingRequest: undefined }));
      const again = reserve('next', now);
      await storage.updateChannel(id, again.callback);
      assert.equal(again.outcome(), 'reserved');
    });

    test("after a crash an instance releases its own reservations and those of instances not alive, no one else's", async () => {
      const net = 'eip155:1';
      const [a, b] = [new SqlChannelStorage(db, { network: net, instance: 'a' }), new SqlChannelStorage(db, { network: net, instance: 'b' })];
      const [ofA, ofB, keptA] = [nextId(), nextId(), nextId()];
      const reserved = (id: string) => fullChannel(id, { pendingRequest: { pendingId: `p-${id}`, signedMaxClaimable: '5', expiresAt: Date.now() + 300_000 } });
      await a.updateChannel(ofA, () => reserved(ofA));
      await b.updateChannel(ofB, () => reserved(ofB));
      await a.updateChannel(keptA, () => reserved(keptA));
      // Another instance's write that keeps the reservation (a claimed total) leaves it a's.
      await b.updateChannel(keptA, (c) => ({ ...c!, totalClaimed: '18446744073709551618' }));
      const expected = (ids: string[]) => ids.map((id) => id.toLowerCase()).sort();

      assert.deepEqual(await a.releaseOrphanedReservations({ instance: 'a', live: new Set(['a', 'b']) }), expected([ofA, keptA]));
      const released = await a.get(ofA);
      assert.equal(released?.pendingRequest, undefined);
      assert.equal(released?.onchainSyncedAt, undefined, 'verified against the chain next time');
      assert.equal(released?.chargedCumulativeAmount, reserved(ofA).chargedCumulativeAmount, 'nothing else changes');
      assert.equal((await b.get(ofB))?.pendingRequest?.pendingId, `p-${ofB}`, "a live instance's reservation stays");
      assert.deepEqual(await a.releaseOrphanedReservations({ instance: 'a', live: new Set(['a']) }), expected([ofB]), "a dead instance's is released");
      await b.updateChannel(ofB, () => reserved(ofB));
      assert.deepEqual(await b.releaseOrphanedReservations({ instance: 'b' }), expected([ofB]), 'an embedded store: every reservation is a dead process\'s');
      await a.updateChannel(ofA, () => reserved(ofA));
      assert.deepEqual(await new SqlChannelStorage(db, { network: 'eip155:2' }).releaseOrphanedReservations({ instance: 'a' }), [], 'other networks untouched');
      assert.equal((await a.get(ofA))?.pendingRequest?.pendingId, `p-${ofA}`);
    });

    test('a charged record is the stored one: what others wrote since the admission (a claim, a top-up) is read back, the rest is the charge\'s', async () => {
      const id = nextId();
      const admitted = fullChannel(id, { chargedCumulativeAmount: '4000', balance: '1000000', totalClaimed: '2000', withdrawRequestedAt: 0, pendingRequest: undefined });
      await storage.updateChannel(id, () => admitted);
      // After the voucher was admitted on that record: a claim and a top-up land (written by SQL, as another instance would).
      await db.query(`UPDATE channels SET total_claimed = 3000, balance = 2000000, refund_nonce = refund_nonce + 1 WHERE channel_id = $1`, [id.toLowerCase()]);
      const charged = await storage.commitVoucher({ channelId: id, record: admitted, cumulative: 5000n, price: 1000n, signature: `0x${'cd'.repeat(65)}`, nowMs: 1_700_000_000_123 });
      const stored = await storage.get(id);
      assert.deepEqual(charged?.after, stored);
      assert.equal(stored?.totalClaimed, '3000');
      assert.equal(stored?.balance, '2000000');
      assert.equal(stored?.chargedCumulativeAmount, '5000');
      assert.deepEqual(charged?.before, { ...stored, chargedCumulativeAmount: '4000' });
      const bare = bareChannel(nextId(), { balance: '10000' });
      await storage.updateChannel(bare.channelId, () => bare);
      const alsoCharged = await storage.commitVoucher({ channelId: bare.channelId, record: bare, cumulative: 1000n, price: 1000n, signature: `0x${'ef'.repeat(65)}`, nowMs: 5 });
      assert.deepEqual(alsoCharged?.after, await storage.get(bare.channelId), 'a record without a mirror of the chain');
    });

    test('a voucher\'s charge rewrites its channel\'s row in place (HOT: no index entry, nothing left for a VACUUM)', async () => {
      const ids = [nextId(), nextId(), nextId()];
      for (const id of ids) await storage.updateChannel(id, () => fullChannel(id, { chargedCumulativeAmount: '0', balance: '1000000', totalClaimed: '0', withdrawRequestedAt: 0, pendingRequest: undefined }));
      const charge = (id: string, n: number) => ({ channelId: id, record: fullChannel(id), cumulative: BigInt(n) * 1000n, price: 1000n, signature: `0x${'ab'.repeat(65)}`, nowMs: Date.now() + n });
      // Each charge in its own transaction, as the gateway commits them. The session's counters of
      // updates not yet reported to the statistics include earlier transactions': read before and after.
      const counters = async (tx: SqlQueries) => {
        const { rows: [stats] } = await tx.query<{ updated: string | number; hot: string | number }>(
          `SELECT pg_stat_get_xact_tuples_updated('channels'::regclass) AS updated, pg_stat_get_xact_tuples_hot_updated('channels'::regclass) AS hot`);
        return { updated: Number(stats!.updated), hot: Number(stats!.hot) };
      };
      const counted = (charges: ReturnType<typeof charge>[]) => db.transaction(async (tx) => {
        const before = await counters(tx);
        const rows = await chargeVoucherRows(tx, NETWORK, charges);
        const after = await counters(tx);
        return { charged: rows.length, updated: after.updated - before.updated, hot: after.hot - before.hot };
      });
      for (let n = 1; n <= 12; n++) {
        assert.deepEqual(await counted([charge(ids[0]!, n)]), { charged: 1, updated: 1, hot: 1 }, `alone, voucher ${n}`);
        assert.deepEqual(await counted([charge(ids[1]!, n), charge(ids[2]!, n)]), { charged: 2, updated: 2, hot: 2 }, `in a group, voucher ${n}`);
      }
      assert.equal((await storage.get(ids[2]!))?.chargedCumulativeAmount, '12000');
    });

    test('the group charge\'s kept plan looks its channels up by primary key, however few the channels when it was made', async () => {
      const plan = () => db.transaction(async (tx) => {
        // As chargeVoucherRows plans it, and as a kept (generic) plan: made once, without the values.
        await tx.exec('SET LOCAL enable_seqscan = off');
        await tx.exec('SET LOCAL plan_cache_mode = force_generic_plan');
        await tx.exec(`PREPARE group_charge_plan(text[], text[], numeric[], numeric[], text[], bigint[], text) AS ${GROUP_CHARGE}`);
        try {
          const { rows } = await tx.query<{ 'QUERY PLAN': string }>(`EXPLAIN EXECUTE group_charge_plan('{}', '{}', '{}', '{}', '{}', '{}', 'n')`);
          return rows.map((r) => r['QUERY PLAN']).join('\n');
        } finally {
          await tx.exec('DEALLOCATE group_charge_plan');
        }
      });
      const made = await plan();
      assert.match(made, /Index Cond: \(channel_id = ANY \(\$1\)\)/, made);
      assert.doesNotMatch(made, /Seq Scan on channels/, made);

      // And the group charge plans it so, for its transaction only.
      const ids = [nextId(), nextId()];
      for (const id of ids) await storage.updateChannel(id, () => fullChannel(id, { chargedCumulativeAmount: '0', balance: '1000000', totalClaimed: '0', withdrawRequestedAt: 0, pendingRequest: undefined }));
      const seqscan = async (tx: SqlQueries) => (await tx.query<{ enable_seqscan: string }>('SHOW enable_seqscan')).rows[0]?.enable_seqscan;
      const during = await db.transaction(async (tx) => {
        const charged = await chargeVoucherRows(tx, NETWORK, ids.map((id) => ({ channelId: id, record: fullChannel(id), cumulative: 1000n, price: 1000n, signature: `0x${'ab'.repeat(65)}`, nowMs: Date.now() })));
        assert.equal(charged.length, 2);
        return seqscan(tx);
      });
      assert.equal(during, 'off');
      assert.equal(await seqscan(db), 'on', 'after its transaction');
    });

    if (store.openPair) {
      const openPair = store.openPair.bind(store);
      test('two instances on two pools, 50 concurrent increments each on one channel: exactly 100', async () => {
        const [a, b] = await openPair();
        try {
          const [one, two] = [await SqlChannelStorage.open(a, { network: NETWORK }), await SqlChannelStorage.open(b, { network: NETWORK })];
          const id = nextId();
          await Promise.all([one, two].flatMap((s) => Array.from({ length: 50 }, () => s.updateChannel(id, increment(id)))));
          assert.equal((await one.get(id))?.chargedCumulativeAmount, '100');
          assert.equal((await two.get(id))?.chargedCumulativeAmount, '100');
        } finally {
          await Promise.all([a.close(), b.close()]);
        }
      });

      test('two instances reserving one channel together: one reservation in all, the other instance sees it', async () => {
        const [a, b] = await openPair();
        try {
          const [one, two] = [await SqlChannelStorage.open(a, { network: NETWORK }), await SqlChannelStorage.open(b, { network: NETWORK })];
          const id = nextId();
          await one.updateChannel(id, () => bareChannel(id));
          const now = Date.now();
          const attempts = Array.from({ length: 20 }, (_, i) => ({ storage: i % 2 ? one : two, ...reserve(`p${i}`, now) }));
          await Promise.all(attempts.map((x) => x.storage.updateChannel(id, x.callback)));
          const winners = attempts.filter((x) => x.outcome() === 'reserved');
          assert.equal(winners.length, 1);
          assert.equal((await one.get(id))?.pendingRequest?.pendingId, (await two.get(id))?.pendingRequest?.pendingId);
        } finally {
          await Promise.all([a.close(), b.close()]);
        }
      });
    }
  });
}
