import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { openPgliteClient } from './pglite-client.ts';
import { SqlPaymentLedger } from './sql-payment-ledger.ts';

let ledger: SqlPaymentLedger;
before(async () => {
  ledger = await SqlPaymentLedger.open(await openPgliteClient());
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
  assert.ok(results.filter((r) => !r.locked).every((r) => !r.locked && r.state === 'verified'));
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

test('rows can be listed by state for reconciliation', async () => {
  const e = entry();
  const lock = await ledger.lock(e);
  assert.ok(lock.locked);
  await ledger.transition(lock.id, 'pending', { txHash: '0xabc' });
  const pending = await ledger.inStates(['pending']);
  assert.ok(pending.some((r) => r.id === lock.id && r.txHash === '0xabc'));
});
