// The thread that recovers payment signers while the main thread is busy (recovery-thread.ts).
// Plain JavaScript with two libraries, the native libsecp256k1 binding and js-sha3, so it starts in
// tens of milliseconds under any loader. A message is a batch: [digest, signature, digest, signature, …]
// as 0x-hex strings (v 27/28 or 0/1, already checked by the caller); the answer is one address per
// pair, in order, or '' where nothing recovers. It says 'ready' once its libraries have loaded.
import { createRequire } from 'node:module';
import { parentPort } from 'node:worker_threads';

const require = createRequire(import.meta.url);
const native = require('secp256k1/bindings');
const { keccak256 } = require('js-sha3');

const bytes = (hex) => Buffer.from(hex.slice(2), 'hex');

function recover(digest, signature) {
  try {
    const raw = bytes(signature);
    const v = raw[64];
    const publicKey = native.ecdsaRecover(raw.subarray(0, 64), v >= 27 ? v - 27 : v, bytes(digest), false);
    return `0x${keccak256(publicKey.subarray(1)).slice(-40)}`;
  } catch {
    return '';
  }
}

parentPort.on('message', (batch) => {
  const signers = new Array(batch.length / 2);
  for (let i = 0; i < signers.length; i++) signers[i] = recover(batch[2 * i], batch[2 * i + 1]);
  parentPort.postMessage(signers);
});
parentPort.postMessage('ready');
