import assert from 'node:assert/strict';
import test from 'node:test';
import { keccak256 } from 'viem';
import { keccak256Bytes, keccak256Hex } from './keccak.ts';

test('keccak256 over bytes and over hex gives viem\'s hash, at every length around the 136-byte rate', () => {
  for (const length of [0, 1, 32, 64, 65, 66, 96, 135, 136, 137, 300]) {
    const bytes = Uint8Array.from({ length }, (_, i) => (i * 31 + length) & 0xff);
    const hex = `0x${Buffer.from(bytes).toString('hex')}` as const;
    assert.equal(keccak256Bytes(bytes), keccak256(bytes), `bytes, length ${length}`);
    assert.equal(keccak256Hex(hex), keccak256(hex), `hex, length ${length}`);
  }
});

test('hex is read as the bytes it stands for, upper or lower case, never as text', () => {
  assert.equal(keccak256Hex('0xABCDEF'), keccak256('0xabcdef'));
  assert.notEqual(keccak256Hex('0xabcdef'), keccak256(new TextEncoder().encode('0xabcdef')));
});
