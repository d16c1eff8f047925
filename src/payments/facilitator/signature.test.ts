// The hot path's signature check against viem's reference implementations: the hand-built EIP-712
// digest equals hashTypedData, native recovery equals viem's recoverAddress, high-s stays refused.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { test } from 'node:test';
import { authorizationTypes } from '@x402/evm';
import { recoverAddress, toHex } from 'viem';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Eip3009Authorization } from '../exact-evm-payload.ts';
import { recoveryBackend, recoverSigner } from './secp256k1-recovery.ts';
import type { Eip712Domain } from './signature.ts';
import { authorizationDigest, fastAuthorizationDigest, malleateSignature, recoverAuthorizationSigner } from './signature.ts';

const domains: Eip712Domain[] = [
  { name: 'USD Coin', version: '2', chainId: 8453, verifyingContract: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913' },
  { name: 'USDC', version: '2', chainId: 84532, verifyingContract: '0x036CbD53842c5426634e7929541eC2318f3dCF7e' },
];
const address = () => toHex(randomBytes(20)) as Address;
const big = (bytes: number) => BigInt(toHex(randomBytes(bytes)));

function randomAuthorization(from: Address): Eip3009Authorization {
  return { from, to: address(), value: big(1 + (randomBytes(1)[0]! % 31)), validAfter: big(4), validBefore: big(8), nonce: toHex(randomBytes(32)) };
}

test('the hand-built digest equals viem\'s hashTypedData, across domains and random values', () => {
  for (let i = 0; i < 300; i++) {
    const domain = domains[i % 2]!;
    const authorization = randomAuthorization(address());
    assert.equal(fastAuthorizationDigest(domain, authorization), authorizationDigest(domain, authorization));
  }
});

test('the native binding is what recovers here, and recovers what viem recovers', async () => {
  // linux-x64 has a prebuilt binary: if it stopped loading, the hot path would be 25x slower unnoticed.
  assert.equal(recoveryBackend, 'native');
  for (let i = 0; i < 100; i++) {
    const account = privateKeyToAccount(generatePrivateKey());
    const domain = domains[i % 2]!;
    const authorization = randomAuthorization(account.address);
    const signature = await account.signTypedData({ domain, types: authorizationTypes, primaryType: 'TransferWithAuthorization', message: authorization });
    const digest = authorizationDigest(domain, authorization);
    assert.equal(await recoverSigner(digest, signature), (await recoverAddress({ hash: digest, signature })).toLowerCase());
    const recovered = await recoverAuthorizationSigner(domain, authorization, signature);
    assert.ok(recovered.ok && recovered.signer.toLowerCase() === account.address.toLowerCase());
    assert.deepEqual(await recoverAuthorizationSigner(domain, authorization, malleateSignature(signature)), { ok: false, reason: 'high_s' });
  }
});

test('without the binding (TOOLGATE_SECP256K1=js) viem recovers the same signer', () => {
  const script = `
    import { recoveryBackend, recoverSigner } from ${JSON.stringify(new URL('./secp256k1-recovery.ts', import.meta.url).href)};
    import { privateKeyToAccount } from 'viem/accounts';
    const account = privateKeyToAccount('0x${'11'.repeat(32)}');
    const hash = '0x${'22'.repeat(32)}';
    const signature = await account.sign({ hash });
    console.log(recoveryBackend, (await recoverSigner(hash, signature)) === account.address);
  `;
  const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { env: { ...process.env, TOOLGATE_SECP256K1: 'js' }, encoding: 'utf8' });
  assert.equal(out.trim(), 'js true');
});
