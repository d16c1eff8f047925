import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { AdvisoryClaimSenderLock, CLAIM_SENDER_LOCK_CLASS, LocalClaimSenderLock } from './claim-sender-lock.ts';
import type { ClaimSenderLock } from './claim-sender-lock.ts';
import { NETWORK } from '../../../test/support/channel-records.ts';
import { useSqlStores } from '../../../test/support/sql-stores.ts';
import { until } from '../../../test/support/until.ts';

/** A send that runs until released, so a test can try the lock while it is held. */
function heldSend() {
  let release!: () => void;
  let started!: () => void;
  const running = new Promise<void>((resolve) => (started = resolve));
  const done = new Promise<void>((resolve) => (release = resolve));
  return { running, release, send: async () => (started(), await done, 'claimed') };
}

/** Two holders cannot hold it at once: the second is refused at once, and holds once the first is done. */
async function excludes(first: ClaimSenderLock, second: ClaimSenderLock): Promise<void> {
  const held = heldSend();
  const firstTurn = first.tryHold(held.send);
  try {
    await held.running;
    let ran = false;
    assert.deepEqual(await second.tryHold(async () => (ran = true)), { held: false });
    assert.equal(ran, false, 'the refused send never ran');
  } finally {
    held.release(); // a failed check must not leave the first holder's transaction open forever
  }
  assert.deepEqual(await firstTurn, { held: true, value: 'claimed' });
  assert.deepEqual(await second.tryHold(async () => 'second'), { held: true, value: 'second' });
}

for (const store of useSqlStores()) {
  describe(`on ${store.name}`, () => {
    if (!store.openPair) {
      test('one process owns PGlite: an in-memory lock, refusing a second holder', async () => {
        const lock = new LocalClaimSenderLock();
        await excludes(lock, lock);
      });

      test('a send that throws releases the lock', async () => {
        const lock = new LocalClaimSenderLock();
        await assert.rejects(lock.tryHold(async () => { throw new Error('reverted'); }), /reverted/);
        assert.deepEqual(await lock.tryHold(async () => 1), { held: true, value: 1 });
      });
      return;
    }
    const openPair = store.openPair.bind(store);

    test('two instances on one database: the second is refused while the first sends, then holds', async () => {
      const [a, b] = await openPair();
      try {
        await excludes(new AdvisoryClaimSenderLock(a, NETWORK), new AdvisoryClaimSenderLock(b, NETWORK));
        await excludes(new AdvisoryClaimSenderLock(b, NETWORK), new AdvisoryClaimSenderLock(a, NETWORK));
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    test('two holders in one instance are refused too (each its own connection); other networks do not wait', async () => {
      const [a, b] = await openPair();
      try {
        const lock = new AdvisoryClaimSenderLock(a, NETWORK);
        await excludes(lock, lock);
        const held = heldSend();
        const turn = lock.tryHold(held.send);
        try {
          await held.running;
          assert.deepEqual(await new AdvisoryClaimSenderLock(b, 'eip155:84532').tryHold(async () => 'other'), { held: true, value: 'other' });
        } finally {
          held.release();
        }
        await turn;
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    test('a send that throws releases the lock (the transaction rolls back)', async () => {
      const [a, b] = await openPair();
      try {
        await assert.rejects(new AdvisoryClaimSenderLock(a, NETWORK).tryHold(async () => { throw new Error('reverted'); }), /reverted/);
        assert.deepEqual(await new AdvisoryClaimSenderLock(b, NETWORK).tryHold(async () => 1), { held: true, value: 1 });
      } finally {
        await Promise.all([a.close(), b.close()]);
      }
    });

    test("a holder whose connection dies loses the lock: a crashed instance never blocks claims", async () => {
      const [a, b] = await openPair();
      const held = heldSend();
      try {
        const turn = new AdvisoryClaimSenderLock(a, NETWORK).tryHold(held.send);
        await held.running;
        const other = new AdvisoryClaimSenderLock(b, NETWORK);
        assert.deepEqual(await other.tryHold(async () => 1), { held: false });
        const { rows } = await b.query<{ pid: number }>(
          `SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND classid = $1 AND pid <> pg_backend_pid()`,
          [CLAIM_SENDER_LOCK_CLASS],
        );
        assert.equal(rows.length, 1, 'the holder is the one backend holding the lock');
        await b.query('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
        // pg_terminate_backend returns once the signal is sent; the lock goes when the backend has exited.
        await until(async () => !(await b.query('SELECT 1 FROM pg_stat_activity WHERE pid = $1', [rows[0]!.pid])).rows.length, 'the holder backend to exit', 5_000);
        assert.deepEqual(await other.tryHold(async () => 2), { held: true, value: 2 });
        held.release();
        await assert.rejects(turn, 'the dead holder learns its transaction is gone');
      } finally {
        held.release(); // never leave the dead holder's send waiting: its pool could not close
        await Promise.all([a.close(), b.close()]);
      }
    });
  });
}
