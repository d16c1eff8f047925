import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Channel } from '@x402/evm/batch-settlement/server';
import { SqlChannelClaims } from './channel-claims.ts';
import { SqlChannelStorage } from './sql-channel-storage.ts';
import type { SqlClient } from '../ledger/sql-client.ts';
import { bareChannel, channelId, NETWORK } from '../../../test/support/channel-records.ts';
import { useSqlStores } from '../../../test/support/sql-stores.ts';

for (const store of useSqlStores()) {
  describe(`on ${store.name}`, () => {
    let db: SqlClient;
    let storage: SqlChannelStorage;
    let claims: SqlChannelClaims;
    before(async () => {
      db = await store.open();
      storage = await SqlChannelStorage.open(db, { network: NETWORK });
      claims = new SqlChannelClaims(db, NETWORK);
    });
    after(() => db.close());

    const put = (channel: Channel) => storage.updateChannel(channel.channelId, () => channel);
    const withdrawDelay = 86_400;
    const config = (n: number) => ({ ...bareChannel(channelId(n)).channelConfig, withdrawDelay });
    const channel = (n: number, fields: Partial<Channel>) => bareChannel(channelId(n), { channelConfig: config(n), ...fields });

    test('unclaimed channels: withdrawing ones by nearest deadline, then the longest idle; claimed and other networks left out', async () => {
      await put(channel(1, { chargedCumulativeAmount: '10', lastRequestTimestamp: 1_000 })); // idle longest, no withdrawal
      await put(channel(2, { chargedCumulativeAmount: '10', withdrawRequestedAt: 2_000_000 })); // deadline 2,086,400
      await put(channel(3, { chargedCumulativeAmount: '10', withdrawRequestedAt: 1_000_000 })); // deadline 1,086,400: nearest
      await put(channel(4, { chargedCumulativeAmount: '10', totalClaimed: '10', withdrawRequestedAt: 500_000 })); // all claimed
      await put(channel(5, { chargedCumulativeAmount: '10', lastRequestTimestamp: 9_000 })); // recent
      await put(channel(6, { chargedCumulativeAmount: '0', signedMaxClaimable: '10' })); // a voucher reserved, nothing charged
      const elsewhere = new SqlChannelStorage(db, { network: 'eip155:84532' });
      await elsewhere.updateChannel(channelId(7), () => channel(7, { chargedCumulativeAmount: '10', withdrawRequestedAt: 1 }));

      const order = (list: Channel[]) => list.map((c) => Number.parseInt(c.channelId, 16));
      assert.deepEqual(order(await claims.unclaimed(10)), [3, 2, 1, 5]);
      assert.deepEqual(order(await claims.unclaimed(2)), [3, 2]);
      assert.deepEqual(order(await new SqlChannelClaims(db, 'eip155:84532').unclaimed(10)), [7]);
      assert.deepEqual((await claims.unclaimed(1))[0], channel(3, { chargedCumulativeAmount: '10', withdrawRequestedAt: 1_000_000 }), 'the whole record, ready for a claim');
    });

    test('a confirmed claim raises the claimed total, never lowers it; repeats and unknown channels change nothing', async () => {
      const id = channelId(20);
      await put(channel(20, { chargedCumulativeAmount: '300' }));
      assert.deepEqual(await claims.recordClaimed([{ channelId: id, newTotalClaimed: 100n }]), [id]);
      assert.deepEqual(await claims.recordClaimed([{ channelId: id, newTotalClaimed: '100' }]), [], 'the same event twice');
      assert.deepEqual(await claims.recordClaimed([{ channelId: id, newTotalClaimed: 50n }]), [], 'an older event late');
      assert.equal((await storage.get(id))?.totalClaimed, '100');
      assert.deepEqual(await claims.recordClaimed([{ channelId: channelId(21), newTotalClaimed: 5n }]), [], 'no such channel');

      const big = (2n ** 127n).toString();
      await put(channel(22, { chargedCumulativeAmount: big }));
      const raised = await claims.recordClaimed([
        { channelId: id.toUpperCase().replace('0X', '0x'), newTotalClaimed: 300n },
        { channelId: channelId(22), newTotalClaimed: 1n },
        { channelId: channelId(22), newTotalClaimed: big },
      ]);
      assert.deepEqual(raised, [id, channelId(22)].sort());
      assert.equal((await storage.get(channelId(22)))?.totalClaimed, big, 'the highest of one batch, exact');
      const left = (await claims.unclaimed(100)).map((c) => c.channelId);
      assert.ok(!left.includes(id) && !left.includes(channelId(22)), 'fully claimed channels leave the listing');
    });
  });
}
