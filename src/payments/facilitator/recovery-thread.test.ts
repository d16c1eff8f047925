import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRequire } from 'node:module';
import { keccak256, serializeSignature, toHex } from 'viem';
import { privateKeyToAccount, sign } from 'viem/accounts';
import type { Address, Hex } from 'viem';
import { keccak256Bytes } from './keccak.ts';
import { RecoveryThread } from './recovery-thread.ts';

const binding = createRequire(import.meta.url)('secp256k1/bindings') as {
  ecdsaRecover(signature: Uint8Array, recid: number, message: Uint8Array, compressed: boolean): Uint8Array;
};
const bytes = (hex: string) => Buffer.from(hex.slice(2), 'hex');
function inline(digest: Hex, signature: Hex): Address {
  const raw = bytes(signature);
  const publicKey = binding.ecdsaRecover(raw.subarray(0, 64), raw[64]! - 27, bytes(digest), false);
  return `0x${keccak256Bytes(publicKey.subarray(1)).slice(-40)}` as Address;
}

const busy = { busy: () => true };
const idle = { busy: () => false };

async function signed(count: number): Promise<{ digest: Hex; signature: Hex; signer: Address }[]> {
  return Promise.all(Array.from({ length: count }, async (_, i) => {
    const privateKey = keccak256(toHex(`recovery-thread key ${i}`));
    const digest = keccak256(toHex(`message ${i}`));
    const signature = serializeSignature(await sign({ hash: digest, privateKey }));
    return { digest, signature, signer: privateKeyToAccount(privateKey).address };
  }));
}

/** A signature of the right shape whose r is no point's x: nothing recovers from it. */
function unrecoverable(digest: Hex): Hex {
  for (let r = 1n; ; r++) {
    const signature = `0x${r.toString(16).padStart(64, '0')}${'11'.repeat(32)}1b` as Hex;
    try {
      inline(digest, signature);
    } catch {
      return signature;
    }
  }
}

test('while the main thread is busy, signers are recovered on the worker, the same as inline, a turn\'s recoveries in one batch', async () => {
  const thread = new RecoveryThread({ inline, load: busy });
  try {
    const [first, ...rest] = await signed(41);
    // The first recovery starts the worker and is done inline meanwhile.
    assert.equal((await thread.recover(first!.digest, first!.signature)).toLowerCase(), first!.signer.toLowerCase());
    assert.equal(await thread.started(), true);
    const recovered = await Promise.all(rest.map((s) => thread.recover(s.digest, s.signature)));
    assert.deepEqual(recovered.map((a) => a.toLowerCase()), rest.map((s) => s.signer.toLowerCase()));
    assert.equal(thread.offloaded, rest.length);
  } finally {
    await thread.close();
  }
});

test('a signature nothing recovers from is refused by the worker as inline', async () => {
  const thread = new RecoveryThread({ inline, load: busy });
  try {
    const [good] = await signed(1);
    await thread.recover(good!.digest, good!.signature);
    assert.equal(await thread.started(), true);
    const bad = unrecoverable(good!.digest);
    assert.throws(() => inline(good!.digest, bad));
    const [refused, accepted] = await Promise.allSettled([thread.recover(good!.digest, bad), thread.recover(good!.digest, good!.signature)]);
    assert.equal(refused.status, 'rejected');
    assert.equal(accepted.status === 'fulfilled' && accepted.value.toLowerCase(), good!.signer.toLowerCase());
    assert.equal(thread.offloaded, 2);
  } finally {
    await thread.close();
  }
});

test('while the main thread is not busy, every recovery stays inline and no worker starts', async () => {
  const thread = new RecoveryThread({ inline, load: idle });
  const all = await signed(5);
  const recovered = await Promise.all(all.map((s) => thread.recover(s.digest, s.signature)));
  assert.deepEqual(recovered.map((a) => a.toLowerCase()), all.map((s) => s.signer.toLowerCase()));
  assert.equal(thread.offloaded, 0);
  await thread.close();
});

test('a worker that dies leaves no recovery unanswered: its batch and every later one are recovered inline', async () => {
  const thread = new RecoveryThread({ inline, load: busy, script: new URL('./recovery-thread.fixture.mjs', import.meta.url) });
  try {
    const all = await signed(12);
    await thread.recover(all[0]!.digest, all[0]!.signature);
    assert.equal(await thread.started(), true);
    const recovered = await Promise.all(all.map((s) => thread.recover(s.digest, s.signature)));
    assert.deepEqual(recovered.map((a) => a.toLowerCase()), all.map((s) => s.signer.toLowerCase()));
    assert.equal(thread.offloaded, 0);
    const [late] = await signed(1);
    assert.equal((await thread.recover(late!.digest, late!.signature)).toLowerCase(), late!.signer.toLowerCase());
  } finally {
    await thread.close();
  }
});

test('a worker whose script cannot load is a failed start: recoveries run inline', async () => {
  const thread = new RecoveryThread({ inline, load: busy, script: new URL('./no-such-recovery-worker.mjs', import.meta.url) });
  const [one] = await signed(1);
  assert.equal((await thread.recover(one!.digest, one!.signature)).toLowerCase(), one!.signer.toLowerCase());
  assert.equal(await thread.started(), false);
  assert.equal((await thread.recover(one!.digest, one!.signature)).toLowerCase(), one!.signer.toLowerCase());
  await thread.close();
});
