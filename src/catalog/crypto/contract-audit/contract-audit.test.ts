// The audit's pure parts: opcode scanning that skips PUSH data and the metadata trailer, the
// EIP-1167 pattern, the proxy slots as their EIPs define them, selectors of known signatures, the
// score, and the simulator's committed code against its source.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { test } from 'node:test';
import { keccak256, toFunctionSelector, toHex } from 'viem';
import type { Hex } from 'viem';
import { minimalProxyTarget, scanOpcodes } from './bytecode.ts';
import { capabilitiesOf } from './capabilities.ts';
import { PROXY_SLOTS } from './proxies.ts';
import { verdictOf } from './scoring.ts';
import { TAX_SIMULATOR_RUNTIME } from './tax-simulator-code.ts';

test('opcodes inside PUSH data and the CBOR metadata are not opcodes', () => {
  // PUSH2 0xfff4, DELEGATECALL, STOP, then a metadata trailer a1 ff f4 with its length 0x0003.
  const code: Hex = '0x61fff4f400a1fff40003';
  const found = scanOpcodes(code);
  assert.deepEqual(found.delegatecallAt, [3]);
  assert.deepEqual(found.selfdestructAt, []);
  assert.equal(found.codeBytes, 10);
  assert.deepEqual(scanOpcodes('0x6000ff').selfdestructAt, [2]);
});

test('an EIP-1167 clone is recognised by its exact code', () => {
  const target = '0xbEbc44782C7dB0a1A60Cb6fe97d0b483032FF1C7';
  assert.equal(minimalProxyTarget(`0x363d3d373d3d3d363d73${target.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3`), target);
  assert.equal(minimalProxyTarget('0x363d3d373d3d3d363d73'), undefined);
});

test('the proxy slots are the ones the EIPs define', () => {
  const minusOne = (label: string) => toHex(BigInt(keccak256(toHex(label))) - 1n, { size: 32 });
  assert.equal(PROXY_SLOTS.eip1967Implementation, minusOne('eip1967.proxy.implementation'));
  assert.equal(PROXY_SLOTS.eip1967Admin, minusOne('eip1967.proxy.admin'));
  assert.equal(PROXY_SLOTS.eip1967Beacon, minusOne('eip1967.proxy.beacon'));
  assert.equal(PROXY_SLOTS.eip1822Proxiable, keccak256(toHex('PROXIABLE')));
  assert.equal(PROXY_SLOTS.zeppelinosImplementation, keccak256(toHex('org.zeppelinos.proxy.implementation')));
  assert.equal(PROXY_SLOTS.zeppelinosAdmin, keccak256(toHex('org.zeppelinos.proxy.admin')));
});

test('known selectors become capabilities; unknown ones are ignored', () => {
  assert.equal(toFunctionSelector('function transfer(address,uint256)'), '0xa9059cbb');
  const found = capabilitiesOf(['40c10f19', 'a9059cbb', '8456cb59']);
  assert.deepEqual(found.map((c) => [c.id, c.functions.map((f) => f.signature)]), [['mint', ['mint(address,uint256)']], ['pause', ['pause()']]]);
});

test('a honeypot is high risk whatever the score; unknowns are said', () => {
  const finding = (id: string, weight: number, severity = 'high' as const) => ({ id, weight, severity, title: id, evidence: {} });
  assert.deepEqual(verdictOf([finding('honeypot', 60)]), { score: 40, verdict: 'high risk' });
  assert.deepEqual(verdictOf([finding('mint', 15), finding('pause', 10)]), { score: 75, verdict: 'no red flags found' });
  assert.equal(verdictOf([{ ...finding('x', 5), severity: 'unknown' }]).verdict, 'no red flags found in what could be checked');
  assert.equal(verdictOf([finding('a', 20), finding('b', 20)]).verdict, 'caution');
});

test('the committed simulator code is what its source compiles to (npm solc, no download)', () => {
  const solc = createRequire(import.meta.url)('solc') as { compile(input: string): string };
  const input = {
    language: 'Solidity',
    sources: { 'TaxSimulator.sol': { content: readFileSync(new URL('./TaxSimulator.sol', import.meta.url), 'utf8') } },
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', metadata: { bytecodeHash: 'none' }, outputSelection: { '*': { TaxSimulator: ['evm.deployedBytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as { contracts: Record<string, Record<string, { evm: { deployedBytecode: { object: string } } }>> };
  assert.equal(`0x${output.contracts['TaxSimulator.sol']!.TaxSimulator!.evm.deployedBytecode.object}`, TAX_SIMULATOR_RUNTIME);
});
