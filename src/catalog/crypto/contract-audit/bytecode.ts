// What the deployed code itself shows: its size, opcodes that hand control or the contract away
// (SELFDESTRUCT, DELEGATECALL), and whether it is an EIP-1167 minimal proxy. PUSH data is skipped
// and the compiler's CBOR metadata trailer cut off, so bytes that are data are not read as opcodes.
import { getAddress, hexToBytes } from 'viem';
import type { Address, Hex } from 'viem';

const SELFDESTRUCT = 0xff;
const DELEGATECALL = 0xf4;
const PUSH1 = 0x60;
const PUSH32 = 0x7f;

const MINIMAL_PROXY = /^0x363d3d373d3d3d363d73([0-9a-f]{40})5af43d82803e903d91602b57fd5bf3$/i;

export function minimalProxyTarget(code: Hex): Address | undefined {
  const match = MINIMAL_PROXY.exec(code);
  return match ? getAddress(`0x${match[1]}`) : undefined;
}

/** The code without Solidity/Vyper's CBOR metadata (its length is in the last two bytes). */
export function withoutMetadata(code: Uint8Array): Uint8Array {
  if (code.length < 4) return code;
  const length = (code[code.length - 2]! << 8) | code[code.length - 1]!;
  const start = code.length - 2 - length;
  // A CBOR map of one to three entries (a1-a3) starts the trailer.
  if (start > 0 && code[start]! >= 0xa1 && code[start]! <= 0xa3) return code.subarray(0, start);
  return code;
}

export interface OpcodeFindings {
  codeBytes: number;
  selfdestructAt: number[];
  delegatecallAt: number[];
}

export function scanOpcodes(code: Hex): OpcodeFindings {
  const bytes = hexToBytes(code);
  const body = withoutMetadata(bytes);
  const selfdestructAt: number[] = [];
  const delegatecallAt: number[] = [];
  for (let pc = 0; pc < body.length; pc += 1) {
    const op = body[pc]!;
    if (op >= PUSH1 && op <= PUSH32) pc += op - PUSH1 + 1;
    else if (op === SELFDESTRUCT) selfdestructAt.push(pc);
    else if (op === DELEGATECALL) delegatecallAt.push(pc);
  }
  return { codeBytes: bytes.length, selfdestructAt, delegatecallAt };
}
