import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Hex } from 'viem';
import { silentLogger } from '../log.ts';
import { openPgliteClient } from './ledger/pglite-client.ts';
import { SqlPaymentLedger } from './ledger/sql-payment-ledger.ts';
import type { PaymentState } from './ledger/payment-ledger.ts';
import { reconcilePayments } from './reconciler.ts';
import type { SettlementEvidence } from './reconciler.ts';

let ledger: SqlPaymentLedger;
before(async () => {
  ledger = await SqlPaymentLedger.open(await openPgliteClient());
});
after(() => ledger.close());

let n = 0;
const PAYER = '0x00000000000000000000000000000000000000aa';
async function paymentIn(state: PaymentState, txHash?: string, validBefore?: number, instance?: string): Promise<{ id: number; nonce: string }> {
  const nonce = `0x${(++n).toString(16).padStart(64, '0')}`;
  const signedAuthorization = validBefore === undefined ? undefined : JSON.stringify({
    signature: `0x${'11'.repeat(65)}`,
    authorization: { from: PAYER, to: `0x${'bb'.repeat(20)}`, value: '1000', validAfter: '0', validBefore: String(validBefore), nonce },
  });
  const lock = await ledger.lock({
    payer: '0x00000000000000000000000000000000000000aa', nonce, tool: 't', amount: 1000n, network: 'eip155:31337', resource: 'r', ...(signedAuthorization ? { signedAuthorization } : {}), ...(instance ? { instance } : {}),
  });
  assert.ok(lock.locked);
  if (state !== 'verified') await ledger.transition(lock.id, state, txHash ? { txHash } : {});
  return { id: lock.id, nonce };
}

test('after a restart: unfinished calls are released, sent settlements are resolved from the chain', async () => {
  const running = await paymentIn('running');
  const minedPending = await paymentIn('pending', '0xmined');
  const revertedPending = await paymentIn('pending', '0xreverted');
  const unknownPending = await paymentIn('pending', '0xlost');
  const settlingUsed = await paymentIn('settling');
  const settlingUnused = await paymentIn('settling');
  const usedNonces = new Set([settlingUsed.nonce]);
  const chain: SettlementEvidence = {
    transactionOutcome: async (hash: Hex) => (hash === '0xmined' ? 'success' : hash === '0xreverted' ? 'reverted' : 'unknown'),
    authorizationUsed: async (_payer, nonce) => usedNonces.has(nonce),
  };

  const summary = await reconcilePayments(ledger, chain, silentLogger, { instance: 'me', atStart: true, graceMs: 0 });
  assert.deepEqual(summary, { settled: 2, failed: 1, released: 2, stillPending: 1 });
  const stateOf = async (p: { nonce: string }) => (await ledger.find('0x00000000000000000000000000000000000000aa', p.nonce))?.state;
  assert.equal(await stateOf(running), 'released');
  assert.equal(await stateOf(minedPending), 'settled');
  assert.equal(await stateOf(revertedPending), 'failed');
  assert.equal(await stateOf(unknownPending), 'pending');
  assert.equal(await stateOf(settlingUsed), 'settled');
  assert.equal(await stateOf(settlingUnused), 'released');
});

test('a periodic pass leaves calls still within their grace period alone', async () => {
  const running = await paymentIn('running');
  const chain: SettlementEvidence = { transactionOutcome: async () => 'unknown', authorizationUsed: async () => false };
  await reconcilePayments(ledger, chain, silentLogger, { instance: 'me', atStart: false, graceMs: 60_000 });
  assert.equal((await ledger.find('0x00000000000000000000000000000000000000aa', running.nonce))?.state, 'running');
});

test('a sent settlement that never landed fails once its authorization has expired unused, not before', async () => {
  const now = Math.floor(Date.now() / 1000);
  const expired = await paymentIn('pending', '0xlost', now - 3600);
  const live = await paymentIn('pending', '0xlost', now + 3600);
  const chain: SettlementEvidence = { transactionOutcome: async () => 'unknown', authorizationUsed: async () => false };
  await reconcilePayments(ledger, chain, silentLogger, { instance: 'me', atStart: true, graceMs: 0 });
  const record = await ledger.find('0x00000000000000000000000000000000000000aa', expired.nonce);
  assert.equal(record?.state, 'failed');
  assert.match(record?.error ?? '', /expired unused/);
  assert.equal((await ledger.find('0x00000000000000000000000000000000000000aa', live.nonce))?.state, 'pending');
});

test('on a shared store: my own leftovers go at my start, a live instance\'s calls stay, a vanished one\'s are taken over', async () => {
  const mine = await paymentIn('running', undefined, undefined, 'a');
  const live = await paymentIn('running', undefined, undefined, 'b');
  const gone = await paymentIn('settling', undefined, undefined, 'c');
  const chain: SettlementEvidence = { transactionOutcome: async () => 'unknown', authorizationUsed: async () => false };
  const stateOf = async (p: { nonce: string }) => (await ledger.find('0x00000000000000000000000000000000000000aa', p.nonce))?.state;

  await reconcilePayments(ledger, chain, silentLogger, { instance: 'a', atStart: false, live: new Set(['a', 'b', 'c']), graceMs: 600_000 });
  assert.deepEqual([await stateOf(mine), await stateOf(live), await stateOf(gone)], ['running', 'running', 'settling'], 'a periodic pass with everyone alive touches nothing');

  await reconcilePayments(ledger, chain, silentLogger, { instance: 'a', atStart: true, live: new Set(['a', 'b']), graceMs: 600_000 });
  assert.deepEqual([await stateOf(mine), await stateOf(live), await stateOf(gone)], ['released', 'running', 'released']);
});
