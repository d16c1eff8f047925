// Web3 Secret Storage v3 against the test vectors published with its definition:
// https://ethereum.org/developers/docs/data-structures-and-encoding/web3-secret-storage/#test-vectors
// (source: github.com/ethereum/ethereum-org-website, public/content/developers/docs/
// data-structures-and-encoding/web3-secret-storage/index.md; the same vectors as the former
// ethereum wiki page "Web3 Secret Storage Definition").
// The PBKDF2 vector holds end to end. The scrypt vector does not: its listed derived key
// (7446f59e…) and MAC agree with each other, but scrypt over its stated salt and parameters
// (N = 2^18, r = 8, p = 1) gives b4130dc8… (Node's OpenSSL here; an independent Rust keystore
// implementation and Foundry's `cast wallet decrypt-keystore` are reported to reach the same
// mismatch). So the scrypt vector is checked in its two halves: our scrypt against the known
// answer for its parameters, and the MAC and AES stage against its published derived key.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { privateKeyToAccount } from 'viem/accounts';
import { decryptKeystore, deriveKey, encryptKeystore, macOf, openWithDerivedKey, parseKeystore, type KeystoreV3 } from './keystore.ts';

const password = 'testpassword';
const secret = '0x7a28b5ba57c53603b0b07b56bba752f7784bf506fa95edc395f5cf6c7514fe9d';

const pbkdf2Vector: KeystoreV3 = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '6087dab2f9fdbbfaddc31a909735c1e6' },
    ciphertext: '5318b4d5bcd28de64ee5559e671353e16f075ecae9f99c7a79a38af5f869aa46',
    kdf: 'pbkdf2',
    kdfparams: { c: 262144, dklen: 32, prf: 'hmac-sha256', salt: 'ae3cd4e7013836a3df6bd7241b12db061dbe2c6785853cce422d148a624ce0bd' },
    mac: '517ead924a9d0dc3124507e3393d175ce3ff7c1e96529c6c555ce9e51205e9b2',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
};

const scryptVector: KeystoreV3 = {
  crypto: {
    cipher: 'aes-128-ctr',
    cipherparams: { iv: '740770fce12ce862af21264dab25f1da' },
    ciphertext: 'dd8a1132cf57db67c038c6763afe2cbe6ea1949a86abc5843f8ca656ebbb1ea2',
    kdf: 'scrypt',
    kdfparams: { dklen: 32, n: 262144, p: 1, r: 8, salt: '25710c2ccd7c610b24d068af83b959b7a0e5f40641f0c82daeb1345766191034' },
    mac: '337aeb86505d2d0bb620effe57f18381377d67d76dac1090626aa5cd20886a7c',
  },
  id: '3198bc9c-6672-5ab3-d995-4942343ae5b6',
  version: 3,
};

test('the published PBKDF2-SHA-256 vector decrypts to the published secret', async () => {
  assert.equal(await decryptKeystore(pbkdf2Vector, password), secret);
});

test('the published PBKDF2 vector\'s derived key is the published intermediate', async () => {
  assert.equal((await deriveKey(password, pbkdf2Vector)).toString('hex'), 'f06d69cdc7da0faffb1008270bca38f5e31891a3a773950e6d0fea48a7188551');
});

test('the published scrypt vector: its derived key opens it to the published secret; scrypt over its parameters gives the known answer', async () => {
  const published = Buffer.from('7446f59ecc301d2d79bc3302650d8a5cedc185ccbb4bf3ca1ebd2c163eaa6c2d', 'hex');
  assert.equal(openWithDerivedKey(parseKeystore(JSON.stringify(scryptVector)), published), secret);
  assert.equal((await deriveKey(password, scryptVector)).toString('hex'), 'b4130dc81619f55f01a84b16c68f54fc0a166a2ca5903d9b24d2262dbd0420ec');
  await assert.rejects(decryptKeystore(scryptVector, password), /wrong passphrase/, 'the file as published fails its own MAC');
});

test('hostile KDF parameters are refused before any work', async () => {
  const huge = { ...scryptVector, crypto: { ...scryptVector.crypto, kdfparams: { ...scryptVector.crypto.kdfparams, n: 2 ** 24 } } };
  await assert.rejects(decryptKeystore(huge, password), /scrypt parameters too expensive/);
  const notPowerOfTwo = { ...scryptVector, crypto: { ...scryptVector.crypto, kdfparams: { ...scryptVector.crypto.kdfparams, n: 1000 } } };
  await assert.rejects(decryptKeystore(notPowerOfTwo, password), /n must be a power of two/);
  const pbkdf2Forever = { ...pbkdf2Vector, crypto: { ...pbkdf2Vector.crypto, kdfparams: { ...pbkdf2Vector.crypto.kdfparams, c: 2 ** 31 } } };
  await assert.rejects(decryptKeystore(pbkdf2Forever, password), /iteration count out of range/);
});

test('the MAC is keccak256 of the derived key\'s second half and the ciphertext (the vectors\' intermediates)', () => {
  const cases = [
    ['f06d69cdc7da0faffb1008270bca38f5e31891a3a773950e6d0fea48a7188551', pbkdf2Vector],
    ['7446f59ecc301d2d79bc3302650d8a5cedc185ccbb4bf3ca1ebd2c163eaa6c2d', scryptVector],
  ] as const;
  for (const [derivedKey, vector] of cases) {
    assert.equal(macOf(Buffer.from(derivedKey, 'hex'), Buffer.from(vector.crypto.ciphertext, 'hex')).toString('hex'), vector.crypto.mac);
  }
});

test('a wrong passphrase is refused by the MAC, not decrypted into a wrong key', async () => {
  await assert.rejects(decryptKeystore(pbkdf2Vector, 'testpassword!'), /wrong passphrase for this keystore/);
});

test('a file written here reads back, with geth\'s fields: version 3, aes-128-ctr, scrypt, the address without 0x', async () => {
  const key = '0x4c0883a69102937d6231471b5dbb6204fe5129617082792ae468d01a3f362318';
  const written = await encryptKeystore(key, 'correct horse battery staple', { n: 1024, r: 8, p: 1 });
  assert.equal(written.version, 3);
  assert.equal(written.crypto.cipher, 'aes-128-ctr');
  assert.equal(written.crypto.kdf, 'scrypt');
  assert.equal(written.address, privateKeyToAccount(key).address.slice(2).toLowerCase());
  assert.match(written.id, /^[0-9a-f-]{36}$/);
  assert.equal(await decryptKeystore(parseKeystore(JSON.stringify(written)), 'correct horse battery staple'), key);
  const again = await encryptKeystore(key, 'correct horse battery staple', { n: 1024, r: 8, p: 1 });
  assert.notEqual(again.crypto.ciphertext, written.crypto.ciphertext, 'fresh salt and iv each time');
});

test('files that are not v3 keystores are refused with what is wrong', () => {
  assert.throws(() => parseKeystore('nope', 'k.json'), /k\.json is not JSON/);
  assert.throws(() => parseKeystore('{"version":1}', 'k.json'), /k\.json is not a Web3 Secret Storage v3 file/);
  assert.throws(() => parseKeystore(JSON.stringify({ ...scryptVector, crypto: { ...scryptVector.crypto, cipher: 'aes-128-cbc' } }), 'k.json'), /unsupported cipher "aes-128-cbc"/);
});
