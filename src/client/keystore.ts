// Web3 Secret Storage v3 (the keystore JSON of geth, ethers, Foundry's `cast wallet`): a private
// key encrypted with AES-128-CTR under a key derived from a passphrase by scrypt (or PBKDF2-SHA256
// when reading), authenticated by keccak256(derivedKey[16..31] ++ ciphertext).
// https://ethereum.org/developers/docs/data-structures-and-encoding/web3-secret-storage/
import { createCipheriv, createDecipheriv, pbkdf2, randomBytes, randomUUID, scrypt, timingSafeEqual } from 'node:crypto';
import { promisify } from 'node:util';
import { keccak256, toHex, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';

const pbkdf2Async = promisify(pbkdf2);

export interface ScryptParams {
  n: number;
  r: number;
  p: number;
  dklen: number;
  salt: string;
}

export interface Pbkdf2Params {
  c: number;
  dklen: number;
  prf: 'hmac-sha256';
  salt: string;
}

export interface KeystoreV3 {
  version: 3;
  id: string;
  address?: string;
  crypto: {
    cipher: 'aes-128-ctr';
    cipherparams: { iv: string };
    ciphertext: string;
    kdf: 'scrypt' | 'pbkdf2';
    kdfparams: ScryptParams | Pbkdf2Params;
    mac: string;
  };
}

/** geth's "standard" scrypt cost: N = 2^18, r = 8, p = 1 (about 256 MB and a second or so). */
export const STANDARD_SCRYPT = { n: 262_144, r: 8, p: 1 } as const;

/** Refused before any work: more than 1 GiB of scrypt memory (128·r·(N+p+2) bytes), or p above 16. */
const MAX_SCRYPT_BYTES = 2 ** 30;

function scryptKey(passphrase: Buffer, params: ScryptParams): Promise<Buffer> {
  const { n, r, p, dklen } = params;
  if (!Number.isInteger(n) || n < 2 || (n & (n - 1)) !== 0) throw new Error(`keystore: scrypt n must be a power of two (got ${n})`);
  if (!Number.isInteger(r) || !Number.isInteger(p) || r < 1 || p < 1 || p > 16 || 128 * r * (n + p + 2) > MAX_SCRYPT_BYTES) throw new Error(`keystore: scrypt parameters too expensive (n ${n}, r ${r}, p ${p}; at most 1 GiB and p 16)`);
  return new Promise((resolve, reject) =>
    scrypt(passphrase, Buffer.from(params.salt, 'hex'), dklen, { N: n, r, p, maxmem: 128 * n * r * p + 256 * r + 64 * 1024 * 1024 }, (error, key) => (error ? reject(error) : resolve(key))),
  );
}

export async function deriveKey(passphrase: string, keystore: KeystoreV3): Promise<Buffer> {
  const secret = Buffer.from(passphrase.normalize('NFKC'), 'utf8');
  const { kdf, kdfparams } = keystore.crypto;
  if (kdf === 'scrypt') return scryptKey(secret, kdfparams as ScryptParams);
  if (kdf === 'pbkdf2') {
    const params = kdfparams as Pbkdf2Params;
    if (params.prf !== 'hmac-sha256') throw new Error(`keystore: unsupported PBKDF2 prf ${JSON.stringify(params.prf)} (only hmac-sha256)`);
    if (!Number.isInteger(params.c) || params.c < 1 || params.c > 10_000_000) throw new Error(`keystore: PBKDF2 iteration count out of range (got ${params.c})`);
    return pbkdf2Async(secret, Buffer.from(params.salt, 'hex'), params.c, params.dklen, 'sha256');
  }
  throw new Error(`keystore: unsupported kdf ${JSON.stringify(kdf)} (scrypt or pbkdf2)`);
}

export const macOf = (derivedKey: Buffer, ciphertext: Buffer): Buffer => Buffer.from(keccak256(Buffer.concat([derivedKey.subarray(16, 32), ciphertext])).slice(2), 'hex');

/** Checks the file's shape; the error names what is wrong. */
export function parseKeystore(text: string, source = 'keystore'): KeystoreV3 {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new Error(`${source} is not JSON`);
  }
  const file = value as Partial<KeystoreV3>;
  if (file?.version !== 3) throw new Error(`${source} is not a Web3 Secret Storage v3 file (version ${JSON.stringify(file?.version)})`);
  const crypto = file.crypto ?? ((value as { Crypto?: KeystoreV3['crypto'] }).Crypto);
  if (!crypto || typeof crypto.ciphertext !== 'string' || typeof crypto.mac !== 'string' || typeof crypto.cipherparams?.iv !== 'string') throw new Error(`${source}: crypto.ciphertext, crypto.mac and crypto.cipherparams.iv are required`);
  if (crypto.cipher !== 'aes-128-ctr') throw new Error(`${source}: unsupported cipher ${JSON.stringify(crypto.cipher)} (aes-128-ctr)`);
  return { ...(file as KeystoreV3), crypto };
}

/** The private key inside, or an error when the passphrase is wrong (the MAC does not match). */
export async function decryptKeystore(keystore: KeystoreV3, passphrase: string): Promise<Hex> {
  return openWithDerivedKey(keystore, await deriveKey(passphrase, keystore));
}

/** Checks the MAC under `derived` and decrypts: the stage after the key derivation. */
export function openWithDerivedKey(keystore: KeystoreV3, derived: Buffer): Hex {
  if (derived.length < 32) throw new Error('keystore: the derived key must be at least 32 bytes (dklen)');
  const ciphertext = Buffer.from(keystore.crypto.ciphertext, 'hex');
  const expected = Buffer.from(keystore.crypto.mac, 'hex');
  const actual = macOf(derived, ciphertext);
  if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) throw new Error('wrong passphrase for this keystore (its MAC does not match)');
  const decipher = createDecipheriv('aes-128-ctr', derived.subarray(0, 16), Buffer.from(keystore.crypto.cipherparams.iv, 'hex'));
  const key = Buffer.concat([decipher.update(ciphertext), decipher.final()]);
  if (key.length !== 32) throw new Error(`keystore: the secret is ${key.length} bytes, not a 32-byte private key`);
  return toHex(key);
}

/** Encrypts `privateKey` under `passphrase` with scrypt (random salt and iv, a random UUID). */
export async function encryptKeystore(privateKey: Hex, passphrase: string, cost: { n: number; r: number; p: number } = STANDARD_SCRYPT): Promise<KeystoreV3> {
  const kdfparams: ScryptParams = { dklen: 32, n: cost.n, r: cost.r, p: cost.p, salt: randomBytes(32).toString('hex') };
  const derived = await scryptKey(Buffer.from(passphrase.normalize('NFKC'), 'utf8'), kdfparams);
  const iv = randomBytes(16);
  const cipher = createCipheriv('aes-128-ctr', derived.subarray(0, 16), iv);
  const ciphertext = Buffer.concat([cipher.update(Buffer.from(privateKey.slice(2), 'hex')), cipher.final()]);
  return {
    version: 3,
    id: randomUUID(),
    address: privateKeyToAccount(privateKey).address.slice(2).toLowerCase(),
    crypto: {
      cipher: 'aes-128-ctr',
      cipherparams: { iv: iv.toString('hex') },
      ciphertext: ciphertext.toString('hex'),
      kdf: 'scrypt',
      kdfparams,
      mac: macOf(derived, ciphertext).toString('hex'),
    },
  };
}
