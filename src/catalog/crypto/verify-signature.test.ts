import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { type Hex, concat, keccak256, stringToBytes, toHex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { testContext } from '../../../test/support/tool-context.ts';
import type { ToolContext } from '../tool.ts';
import { verifySignatureTool } from './verify-signature.ts';
import { schemaIssues } from '../../../test/support/schema-issues.ts';

const ctx: ToolContext = testContext({ signal: new AbortController().signal, now: () => new Date(), caller: { ip: '127.0.0.1' } });

interface VerifyAnswer {
  valid: boolean;
  reason: string | null;
  recoveredSigner: string | null;
  expectedSigner: string;
  matchesExpectedSigner: boolean;
  lowS: boolean;
  messageHash: string;
  standard: string;
}

async function verify(raw: { message: string; signature: string; expectedSigner: string }): Promise<VerifyAnswer> {
  assert.ok(verifySignatureTool.handler);
  return (await verifySignatureTool.handler(verifySignatureTool.input.parse(raw), ctx)) as VerifyAnswer;
}

/** The secp256k1 group order and field prime, from SEC 2 §2.4.1. */
const N = 0xfffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141n;
const P = 0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffefffffc2fn;

const hex32 = (value: bigint) => value.toString(16).padStart(64, '0');
const withParts = (signature: string, parts: { r?: bigint; s?: bigint; v?: number }) => {
  const r = parts.r === undefined ? signature.slice(2, 66) : hex32(parts.r);
  const s = parts.s === undefined ? signature.slice(66, 130) : hex32(parts.s);
  const v = parts.v === undefined ? signature.slice(130) : parts.v.toString(16).padStart(2, '0');
  return `0x${r}${s}${v}`;
};
const sOf = (signature: string) => BigInt(`0x${signature.slice(66, 130)}`);
const vOf = (signature: string) => parseInt(signature.slice(130), 16);

/** EIP-191 version 0x45, written out from the EIP rather than taken from viem's hashMessage. */
const eip191Hash = (message: string) =>
  keccak256(concat([stringToBytes(`\x19Ethereum Signed Message:\n${stringToBytes(message).length}`), stringToBytes(message)]));

const account = privateKeyToAccount(generatePrivateKey());
const other = privateKeyToAccount(generatePrivateKey());

describe('verify_signature on good signatures', () => {
  test('a fresh key signing a message: valid, recovered, checksummed, low s', async () => {
    const message = 'Pay 0.003 USDC to toolgate, nonce 42';
    const signature = await account.signMessage({ message });
    assert.deepEqual(await verify({ message, signature, expectedSigner: account.address.toLowerCase() }), {
      valid: true,
      reason: null,
      recoveredSigner: account.address,
      expectedSigner: account.address,
      matchesExpectedSigner: true,
      lowS: true,
      messageHash: eip191Hash(message),
      standard: 'EIP-191 personal_sign',
    });
  });

  test('the published vector: anvil account #0 signing "hello world" (viem test suite)', async () => {
    const anvil0 = privateKeyToAccount('0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80');
    const published = '0xa461f509887bd19e312c0c58467ce8ff8e300d3c1a90b608a760c5b80318eaf15fe57c96f9175d6cd4daad4663763baa7e78836e067d0163e9a2ccf2ff753f5b1b';
    assert.equal(anvil0.address, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    assert.equal(await anvil0.signMessage({ message: 'hello world' }), published, 'RFC 6979 signing is deterministic');
    const answer = await verify({ message: 'hello world', signature: published, expectedSigner: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' });
    assert.equal(answer.valid, true);
    assert.equal(answer.recoveredSigner, '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266');
    assert.equal(answer.messageHash, '0xd9eba16ed0ecae432b71fe008c98cc872bb4cc214d3220a36f365326cf807d68');
  });

  test('the published non-ASCII vector: anvil account #0 signing "🥵" as UTF-8', async () => {
    const answer = await verify({
      message: '🥵',
      signature: '0x05c99bbbe9fac3ad61721a815d19d6771ad39f3e8dffa7ae7561358f20431d8e7f9e1d487c77355790c79c6eb0b0d63690f690615ef99ee3e4f25eef0317d0701b',
      expectedSigner: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266',
    });
    assert.equal(answer.valid, true);
    assert.equal(answer.messageHash, eip191Hash('🥵'));
  });

  test('v written as 0/1 (y-parity) is the same signature as 27/28', async () => {
    const message = 'parity';
    const signature = await account.signMessage({ message });
    const answer = await verify({ message, signature: withParts(signature, { v: vOf(signature) - 27 }), expectedSigner: account.address });
    assert.equal(answer.valid, true);
  });

  test('the empty message and a multi-byte message (length prefix counts UTF-8 bytes)', async () => {
    for (const message of ['', 'é', 'héllo wörld ✓ 東京', 'line one\nline two']) {
      const signature = await account.signMessage({ message });
      const answer = await verify({ message, signature, expectedSigner: account.address });
      assert.equal(answer.valid, true, JSON.stringify(message));
      assert.equal(answer.messageHash, eip191Hash(message));
    }
  });

  test('a 0x-hex message is verified as its text, not as the bytes it spells', async () => {
    const message = '0xdeadbeef';
    const signedAsText = await account.signMessage({ message });
    assert.equal((await verify({ message, signature: signedAsText, expectedSigner: account.address })).valid, true);
    const signedAsBytes = await account.signMessage({ message: { raw: message } });
    const answer = await verify({ message, signature: signedAsBytes, expectedSigner: account.address });
    assert.equal(answer.valid, false);
    assert.notEqual(answer.recoveredSigner, account.address);
  });
});

describe('verify_signature on bad signatures (200, valid: false, with a reason)', () => {
  test('someone else signed: recovered is the real signer, matchesExpectedSigner false', async () => {
    const message = 'who signed this?';
    const signature = await other.signMessage({ message });
    const answer = await verify({ message, signature, expectedSigner: account.address });
    assert.equal(answer.valid, false);
    assert.equal(answer.matchesExpectedSigner, false);
    assert.equal(answer.recoveredSigner, other.address);
    assert.equal(answer.expectedSigner, account.address);
    assert.equal(answer.lowS, true);
    assert.match(answer.reason ?? '', new RegExp(`recovers to ${other.address}, not to the expected signer`));
  });

  test('a tampered message recovers to some other address', async () => {
    const signature = await account.signMessage({ message: 'send 1 USDC' });
    const answer = await verify({ message: 'send 100 USDC', signature, expectedSigner: account.address });
    assert.equal(answer.valid, false);
    assert.equal(answer.matchesExpectedSigner, false);
    assert.ok(answer.recoveredSigner);
    assert.notEqual(answer.recoveredSigner, account.address);
    assert.equal(answer.messageHash, eip191Hash('send 100 USDC'));
  });

  test('the high-s twin (s\' = n - s, other v) recovers the same signer but is not valid (EIP-2)', async () => {
    const message = 'malleable';
    const signature = await account.signMessage({ message });
    assert.ok(sOf(signature) <= N / 2n, 'viem signs with low s');
    const twin = withParts(signature, { s: N - sOf(signature), v: vOf(signature) === 27 ? 28 : 27 });
    const answer = await verify({ message, signature: twin, expectedSigner: account.address });
    assert.equal(answer.recoveredSigner, account.address);
    assert.equal(answer.matchesExpectedSigner, true);
    assert.equal(answer.lowS, false);
    assert.equal(answer.valid, false);
    assert.match(answer.reason ?? '', /malleable: s is in the upper half .* EIP-2/);
  });

  test('r or s outside [1, n - 1], or an r that is no curve point: nothing recovers', async () => {
    const message = 'broken';
    const signature = await account.signMessage({ message });
    const modPow = (base: bigint, exponent: bigint, modulus: bigint): bigint => {
      let result = 1n;
      for (let b = base % modulus, e = exponent; e > 0n; e >>= 1n, b = (b * b) % modulus) if (e & 1n) result = (result * b) % modulus;
      return result;
    };
    assert.notEqual(modPow(5n ** 3n + 7n, (P - 1n) / 2n, P), 1n, '5^3 + 7 is not a square mod p: no point has x = 5');
    const broken: [parts: { r?: bigint; s?: bigint }, reason: RegExp][] = [
      [{ r: 0n }, /r is out of range/],
      [{ r: N }, /r is out of range/],
      [{ s: 0n }, /s is out of range/],
      [{ s: N }, /s is out of range/],
      [{ s: 2n ** 256n - 1n }, /s is out of range/],
      [{ r: 5n }, /r is not the x-coordinate of a point/],
    ];
    for (const [parts, reason] of broken) {
      const answer = await verify({ message, signature: withParts(signature, parts), expectedSigner: account.address });
      assert.equal(answer.valid, false, JSON.stringify(parts, (_k, v: unknown) => (typeof v === 'bigint' ? toHex(v) : v)));
      assert.equal(answer.recoveredSigner, null);
      assert.equal(answer.matchesExpectedSigner, false);
      assert.match(answer.reason ?? '', reason);
      assert.equal(answer.expectedSigner, account.address);
    }
  });
});

describe('verify_signature refuses malformed input in the schema, naming the field', () => {
  const message = 'hello';
  const good = { message, signature: `0x${'11'.repeat(64)}1b` as Hex, expectedSigner: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266' };
  const { expectIssue } = schemaIssues(verifySignatureTool.input);

  test('the well-formed base case parses', () => {
    assert.ok(verifySignatureTool.input.safeParse(good).success);
  });

  test('signatures of the wrong shape', () => {
    for (const signature of [
      '11'.repeat(65), // no 0x
      `0x${'11'.repeat(64)}`, // 64 bytes (EIP-2098 compact is not accepted)
      `0x${'11'.repeat(64)}1b00`, // 66 bytes
      `0x${'11'.repeat(64)}1`, // odd length
      `0x${'zz'.repeat(64)}1b`, // not hex
      '',
    ]) {
      expectIssue({ ...good, signature }, 'signature', /0x-prefixed 65-byte hex signature/);
    }
    expectIssue({ ...good, signature: 42 }, 'signature', /expected string/);
  });

  test('a v other than 27, 28, 0 or 1', () => {
    for (const v of ['02', '1a', '1d', '25', 'ff']) {
      expectIssue({ ...good, signature: `0x${'11'.repeat(64)}${v}` }, 'signature', new RegExp(`last byte \\(v\\) must be 27 or 28 .* got 0x${v}`));
    }
    for (const v of ['00', '01', '1b', '1c', '1B', '1C']) {
      assert.ok(verifySignatureTool.input.safeParse({ ...good, signature: `0x${'11'.repeat(64)}${v}` }).success, v);
    }
  });

  test('an expected signer that is no address, or whose EIP-55 checksum is wrong', () => {
    expectIssue({ ...good, expectedSigner: '0x1234' }, 'expectedSigner', /20-byte hex address/);
    expectIssue({ ...good, expectedSigner: 'f39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }, 'expectedSigner', /20-byte hex address/);
    expectIssue({ ...good, expectedSigner: '0xF39Fd6e51aad88F6F4ce6aB8827279cffFb92266' }, 'expectedSigner', /EIP-55 checksum/);
    assert.ok(verifySignatureTool.input.safeParse({ ...good, expectedSigner: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266' }).success);
    assert.ok(verifySignatureTool.input.safeParse({ ...good, expectedSigner: '0xF39FD6E51AAD88F6F4CE6AB8827279CFFFB92266' }).success);
  });

  test('missing fields and an oversized message', () => {
    expectIssue({ signature: good.signature, expectedSigner: good.expectedSigner }, 'message', /expected string/);
    expectIssue({ message, expectedSigner: good.expectedSigner }, 'signature', /expected string/);
    expectIssue({ message, signature: good.signature }, 'expectedSigner', /expected string/);
    expectIssue({ ...good, message: 'x'.repeat(100_001) }, 'message', /<=100000 characters/);
  });
});
