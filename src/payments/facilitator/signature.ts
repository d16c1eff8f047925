// Recovers the signer of an EIP-3009 authorization, refusing what USDC's ECRecover refuses.
// viem recovers malleable high-s signatures that the contract rejects on chain (EIP-2), so a
// facilitator that only recovers would "verify" payments that can never settle.
import { authorizationTypes } from '@x402/evm';
import { hashTypedData, keccak256, parseSignature, toBytes } from 'viem';
import { keccak256Hex } from './keccak.ts';
import { recoverSigner } from './secp256k1-recovery.ts';
import type { Address, Hex } from 'viem';
import type { Eip3009Authorization } from '../exact-evm-payload.ts';

const SECP256K1_N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const HALF_N = SECP256K1_N / 2n;
const SIGNATURE_HEX = /^0x[0-9a-fA-F]{130}$/;

export interface Eip712Domain {
  name: string;
  version: string;
  chainId: number;
  verifyingContract: Address;
}

export function authorizationDigest(domain: Eip712Domain, authorization: Eip3009Authorization): Hex {
  return hashTypedData({ domain, types: authorizationTypes, primaryType: 'TransferWithAuthorization', message: authorization });
}

// The same digest without viem's generic EIP-712 walk (~120 µs a call): the domain separator once
// per domain, the struct hash from six fixed-size words. Checked against hashTypedData in tests.
const TRANSFER_TYPEHASH = keccak256(
  toBytes('TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)'),
);
const DOMAIN_TYPEHASH = keccak256(toBytes('EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)'));
const domainSeparators = new Map<string, Hex>();

/** keccak256 of the domain's EIP-712 encoding, computed once per domain. */
export function domainSeparator(domain: Eip712Domain): Hex {
  const key = `${domain.name}\u0000${domain.version}\u0000${domain.chainId}\u0000${domain.verifyingContract.toLowerCase()}`;
  let separator = domainSeparators.get(key);
  if (!separator) {
    separator = keccak256(
      `${DOMAIN_TYPEHASH}${keccak256(toBytes(domain.name)).slice(2)}${keccak256(toBytes(domain.version)).slice(2)}${word(BigInt(domain.chainId))}${addressWord(domain.verifyingContract)}`,
    );
    domainSeparators.set(key, separator);
  }
  return separator;
}

export const word = (value: bigint) => value.toString(16).padStart(64, '0');
const addressWord = (address: string) => address.slice(2).toLowerCase().padStart(64, '0');

export function fastAuthorizationDigest(domain: Eip712Domain, authorization: Eip3009Authorization): Hex {
  const struct = keccak256Hex(
    `${TRANSFER_TYPEHASH}${addressWord(authorization.from)}${addressWord(authorization.to)}${word(BigInt(authorization.value))}${word(BigInt(authorization.validAfter))}${word(BigInt(authorization.validBefore))}${authorization.nonce.slice(2).toLowerCase().padStart(64, '0')}`,
  );
  return keccak256Hex(`0x1901${domainSeparator(domain).slice(2)}${struct.slice(2)}`);
}

export type RecoveryResult = { ok: true; signer: Address } | { ok: false; reason: 'high_s' | 'bad_v' | 'unrecoverable' };

/** For a 65-byte ECDSA signature (r, s, v). */
export function recoverAuthorizationSigner(domain: Eip712Domain, authorization: Eip3009Authorization, signature: Hex): Promise<RecoveryResult> {
  return recoverLowSSigner(fastAuthorizationDigest(domain, authorization), signature);
}

/**
 * The signer of `digest`, refusing what OpenZeppelin's ECDSA (USDC, the channel contract) refuses:
 * a high s, a v other than 27/28, a signature that is not 65 bytes.
 */
export async function recoverLowSSigner(digest: Hex, signature: Hex): Promise<RecoveryResult> {
  // Read from the hex directly (viem's parseSignature builds curve objects: ~40 µs a call on the hot path).
  if (!SIGNATURE_HEX.test(signature)) return { ok: false, reason: 'unrecoverable' };
  const r = BigInt(`0x${signature.slice(2, 66)}`);
  const s = BigInt(`0x${signature.slice(66, 130)}`);
  if (r === 0n || r >= SECP256K1_N || s === 0n || s >= SECP256K1_N) return { ok: false, reason: 'unrecoverable' };
  if (s > HALF_N) return { ok: false, reason: 'high_s' };
  const v = Number.parseInt(signature.slice(130), 16);
  if (v !== 27 && v !== 28 && v !== 0 && v !== 1) return { ok: false, reason: 'bad_v' };
  try {
    return { ok: true, signer: await recoverSigner(digest, signature) };
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
