// Public-key recovery for EIP-3009 signatures, on the hot path of every paid call. The native
// libsecp256k1 binding (npm `secp256k1`, prebuilt for linux-x64) recovers in ~70 µs where the pure-JS
// curve in viem takes ~1.7 ms; where the binding cannot load, viem does the work. The package's own
// fallback (elliptic) is bypassed on purpose: it is slower than viem and would hide a failed load.
// While the main thread is saturated, recoveries go to a second thread (recovery-thread.ts).
import { createRequire } from 'node:module';
import { recoverAddress } from 'viem';
import { keccak256Bytes } from './keccak.ts';
import { EventLoopLoad, RecoveryThread } from './recovery-thread.ts';
import type { Address, Hex } from 'viem';

interface NativeSecp256k1 {
  ecdsaRecover(signature: Uint8Array, recid: number, message: Uint8Array, compressed: boolean): Uint8Array;
}

function loadNative(): NativeSecp256k1 | undefined {
  if (process.env.TOOLGATE_SECP256K1 === 'js') return undefined;
  try {
    return createRequire(import.meta.url)('secp256k1/bindings') as NativeSecp256k1;
  } catch {
    return undefined;
  }
}

const native = loadNative();

/** Which implementation recovers signers in this process ("native" or "js"), for /health and the benchmarks. */
export const recoveryBackend: 'native' | 'js' = native ? 'native' : 'js';

const hexBytes = (hex: string) => Buffer.from(hex.startsWith('0x') ? hex.slice(2) : hex, 'hex');

/**
 * The address whose key signed `digest` with the 65-byte signature r ‖ s ‖ v (v 27/28 or 0/1).
 * The caller has already refused high-s signatures and other v values; throws if nothing recovers.
 */
export async function recoverSigner(digest: Hex, signature: Hex): Promise<Address> {
  if (!native) return recoverAddress({ hash: digest, signature });
  return (thread ??= recoveryThread(native)).recover(digest, signature);
}

function recoverNatively(binding: NativeSecp256k1, digest: Hex, signature: Hex): Address {
  const bytes = hexBytes(signature);
  const v = bytes[64]!;
  const publicKey = binding.ecdsaRecover(bytes.subarray(0, 64), v >= 27 ? v - 27 : v, hexBytes(digest), false);
  const hash = keccak256Bytes(publicKey.subarray(1));
  return `0x${hash.slice(-40)}` as Address;
}

/** TOOLGATE_RECOVERY_THREAD=off keeps every recovery on the main thread. */
const NEVER_BUSY = { busy: () => false };

let thread: RecoveryThread | undefined;

function recoveryThread(binding: NativeSecp256k1): RecoveryThread {
  const load = process.env.TOOLGATE_RECOVERY_THREAD === 'off' ? NEVER_BUSY : new EventLoopLoad();
  return new RecoveryThread({ inline: (digest, signature) => recoverNatively(binding, digest, signature), load });
}
