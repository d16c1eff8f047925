import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { SqlPaymentLedger } from './sql-payment-ledger.ts';
import { useSqlStores } from '../../../test/support/sql-stores.ts';

for (const store of useSqlStores()) {
  describe(`on ${store.name}`, () => {
    let ledger: SqlPaymentLedger;
    before(async () => {
      ledger = await SqlPaymentLedger.open(await store.open());
    });
    after(() => ledger.close());

    let counter = 0;
    const entry = () => ({
      payer: '0xAbC0000000000000000000000000000000000001',
      nonce: `0x${(++counter).toString(16).padStart(64, '0')}`,
      tool: 'generate_qr_code',
      amount: 2000n,
      network: 'eip155:31337',
      resource: 'http://localhost/api/tools/qr',
    });

    test('of 20 concurrent locks on one authorization exactly one wins', async () => {
      const e = entry();
      const results = await Promise.all(Array.from({ length: 20 }, () => ledger.lock(e)));
      assert.equal(results.filter((r) => r.locked).length, 1);
      assert.ok(results.filter((r) => !r.locked).every((r) => !r.locked && r.state === 'running'));
    });

    test('locks arriving together share a statement and each gets its own answer: new, relockable, in use, settled', async () => {
      const [settled, released, running] = [entry(), entry(), entry()];
      for (const [e, state] of [[settled, 'settled'], [released, 'released'], [running, 'running']] as const) {
        const first = await ledger.lock(e);
        assert.ok(first.locked);
        if (state !== 'running') await ledger.transition(first.id, state);
      }
      const fresh = [entry(), entry(), entry()];
      const results = await Promise.all([settled, ...fresh, released, running, fresh[0]!].map((e) => ledger.lock(e)));
      assert.deepEqual(results.map((r) => (r.locked ? 'locked' : r.state)), ['settled', 'locked', 'locked', 'locked', 'locked', 'running', 'running']);
      const ids = results.flatMap((r) => (r.locked ? [r.id] : []));
      assert.equal(new Set(ids).size, ids.length, 'every lock its own row');
      assert.equal((await ledger.find(released.payer, released.nonce))?.attempts, 2);
    });

    test('the lock ignores the case of payer and nonce', async () => {
      const e = entry();
      assert.equal((await ledger.lock(e)).locked, true);
      const again = await ledger.lock({ ...e, payer: e.payer.toLowerCase(), nonce: e.nonce.toUpperCase().replace('0X', '0x') });
      assert.equal(again.locked, false);
    });

    test('a released authorization can be locked again; a settled one cannot', async () => {
      const e = entry();
      const first = await ledger.lock(e);
      assert.ok(first.locked);
      await ledger.transition(first.id, 'running');
      await ledger.transition(first.id, 'released', { error: 'tool failed' });
      const second = await ledger.lock(e);
      assert.ok(second.locked);
      assert.equal(second.id, first.id);
      await ledger.transition(second.id, 'settling');
      await ledger.transition(second.id, 'settled', { txHash: '0xfeed' });
      const third = await ledger.lock(e);
      assert.deepEqual(third, { locked: false, state: 'settled' });
      const record = await ledger.find(e.payer, e.nonce);
      assert.equal(record?.attempts, 2);
      assert.equal(record?.txHash, '0xfeed');
      assert.equal(record?.error, null, 'a new attempt starts with a clean error');
      assert.equal(record?.amount, 2000n);
    });

    test('a failed authorization is final: it cannot be locked again, alone or with others', async () => {
      const e = entry();
      const first = await ledger.lock(e);
      assert.ok(first.locked);
      await ledger.recordOutcomes([{ id: first.id, state: 'failed', error: 'invalid_exact_evm_nonce_already_used: authorization is used or canceled' }]);
      assert.deepEqual(await ledger.lock(e), { locked: false, state: 'failed' });
      const together = await Promise.all([e, entry()].map((x) => ledger.lock(x)));
      assert.deepEqual(together.map((r) => (r.locked ? 'locked' : r.state)), ['failed', 'locked']);
      assert.equal((await ledger.find(e.payer, e.nonce))?.attempts, 1);
    });

    test('unpaid rows are pruned after the retention: released ones, and failed ones that cost no gas once their authorization expired', async () => {
      const signed = (validBefore: bigint) => JSON.stringify({ signature: '0x00', authorization: { validBefore: validBefore.toString() } });
      const now = BigInt(Math.floor(Date.now() / 1000));
      const make = async (state: 'released' | 'failed' | 'settled', validBefore: bigint, gasUsed?: bigint) => {
        const e = { ...entry(), signedAuthorization: signed(validBefore) };
        const lock = await ledger.lock(e);
        assert.ok(lock.locked);
        if (state === 'released') await ledger.transition(lock.id, 'released', { error: 'tool failed' });
        else await ledger.recordOutcomes([{ id: lock.id, state, ...(gasUsed ? { gasUsed } : {}) }]);
        return e;
      };
      const released = await make('released', now + 300n);
      const failedExpired = await make('failed', now - 10n);
      const failedLive = await make('failed', now + 3_600n);
      const failedWithGas = await make('failed', now - 10n, 53_000n);
      const settled = await make('settled', now - 10n);
      assert.equal(await ledger.pruneUnpaid(new Date(Date.now() - 60_000), now), 0, 'nothing is older than the retention yet');
      const pruned = await ledger.pruneUnpaid(new Date(Date.now() + 1_000), now);
      assert.ok(pruned >= 2);
      const left = async (e: { payer: string; nonce: string }) => (await ledger.find(e.payer, e.nonce))?.state;
      assert.equal(await left(released), undefined);
      assert.equal(await left(failedExpired), undefined);
      assert.equal(await left(failedLive), 'failed', 'a failed authorization still valid on chain stays, so it can never run again');
      assert.equal(await left(failedWithGas), 'failed', 'what collecting cost stays');
      assert.equal(await left(settled), 'settled');
    });

    test('rows can be listed by state for reconciliation', async () => {
      const e = entry();
      const lock = await ledger.lock(e);
      assert.ok(lock.locked);
      await ledger.transition(lock.id, 'pending', { txHash: '0xabc' });
      const pending = await ledger.inStates(['pending']);
      assert.ok(pending.some((r) => r.id === lock.id && r.txHash === '0xabc'));
    });

    test('a batch submission marks every payment in it with the transaction, the settler and the batch size', async () => {
      const locks = await Promise.all([entry(), entry(), entry()].map((e) => ledger.lock(e)));
      const ids = locks.map((l) => (l.locked ? l.id : -1));
      for (const id of ids) await ledger.transition(id, 'settling');
      await ledger.recordSubmission(ids.slice(0, 2), { txHash: '0xbatch', settler: '0xsettler', batchSize: 2 });
      const settling = new Map((await ledger.inStates(['settling'])).map((r) => [r.id, r]));
      assert.deepEqual(ids.map((id) => settling.get(id)?.txHash), ['0xbatch', '0xbatch', null]);
      assert.deepEqual(ids.map((id) => settling.get(id)?.batchSize), [2, 2, null]);
    });

    test('outcomes are written in one call, each with its own state, error and share of the gas', async () => {
      const locks = await Promise.all([entry(), entry(), entry()].map((e) => ledger.lock(e)));
      const [a, b, c] = locks.map((l) => (l.locked ? l.id : -1)) as [number, number, number];
      await ledger.recordOutcomes([
        { id: a, state: 'settled', txHash: '0x01', gasUsed: 51_000n, gasPriceWei: 5_000_000n, l1FeeWei: 12n },
        { id: b, state: 'failed', txHash: '0x01', error: 'FiatTokenV2: authorization is used or canceled' },
        { id: c, state: 'pending', txHash: '0x02', error: 'no receipt' },
      ]);
      const byId = new Map((await ledger.inStates(['settled', 'failed', 'pending'])).map((r) => [r.id, r]));
      assert.equal(byId.get(a)?.state, 'settled');
      assert.equal(byId.get(b)?.state, 'failed');
      assert.equal(byId.get(b)?.error, 'FiatTokenV2: authorization is used or canceled');
      assert.equal(byId.get(c)?.state, 'pending');
      assert.equal(byId.get(c)?.txHash, '0x02');
      const settled = byId.get(a);
      assert.deepEqual([settled?.gasUsed, settled?.gasPriceWei, settled?.l1FeeWei], [51_000n, 5_000_000n, 12n]);
      assert.equal(byId.get(b)?.gasUsed, null, 'no cost is invented where none was given');
    });
  });
}
