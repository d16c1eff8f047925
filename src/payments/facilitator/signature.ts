// Recovers the signer of an EIP-3009 authorization, refusing what USDC's ECRecover refuses.
// viem recovers malleable high-s signatures that the contract rejects on chain (EIP-2), so a
// facilitator that only recovers would "verify" payments that can never settle.
import { authorizationTypes } from '@x402/evm';
import { hashTypedData, parseSignature, recoverAddress } from 'viem';
import type { Address, Hex } from 'viem';
import type { Eip3009Authorization } from '../exact-evm-payload.ts';

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = SECP256K1_N / 2n;

export interface Eip712Domain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Address;
}

export function authorizationDigest(domain: Eip712Domain, authorization: Eip3009Authorization): Hex {
  return hashTypedData({ domain, types: authorizationTypes, primaryType: 'TransferWithAuthorization', message: authorization });
}

export type RecoveryResult = { ok: true; signer: Address } | { ok: false; reason: 'high_s' | 'bad_v' | 'unrecoverable' };

/** For a 65-byte ECDSA signature (r, s, v). */
export async function recoverAuthorizationSigner(domain: Eip712Domain, authorization: Eip3009Authorization, signature: Hex): Promise<RecoveryResult> {
  let parts: ReturnType<typeof parseSignature>;
  try {
    parts = parseSignature(signature);
  } catch {
    return { ok: false, reason: 'unrecoverable' };
  }
  if (BigInt(parts.s) > HALF_N) return { ok: false, reason: 'high_s' };
  const v = parts.v ?? BigInt(parts.yParity + 27);
  if (v !== 27n && v !== 28n) return { ok: false, reason: 'bad_v' };
  try {
    return { ok: true, signer: await recoverAddress({ hash: authorizationDigest(domain, authorization), signature }) };
  } catch {
    return { ok: false, reason: 'unrecoverable' };
  }
}

/** The same signature with s mirrored (n - s) and parity flipped: still recovers in viem, rejected by USDC. */
export function malleateSignature(signature: Hex): Hex {
  const { r, s, yParity } = parseSignature(signature);
  const highS = (SECP256K1_N - BigInt(s)).toString(16).padStart(64, '0');
  const v = (1 - yParity + 27).toString(16);
  return `${r}${highS}${v}` as Hex;
}
