// Compiles a folder of test contracts with the npm solc (solc-js, compiler bundled: nothing is
// downloaded), all in one call, cached on disk by a hash of the sources and the compiler version.
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Abi, Hex } from 'viem';

const require = createRequire(import.meta.url);
const CONTRACTS = new URL('./contracts/', import.meta.url).pathname;
const CACHE = new URL('../../../node_modules/.cache/toolgate-solc/', import.meta.url).pathname;

export interface Compiled {
  abi: Abi;
  bytecode: Hex;
}

interface Solc {
  version(): string;
  compile(input: string): string;
}

interface SolcOutput {
  errors?: { severity: string; formattedMessage: string }[];
  contracts: Record<string, Record<string, { abi: Abi; evm: { bytecode: { object: string } } }>>;
}

const compiled = new Map<string, Record<string, Compiled>>();

/** The base world's contracts (./contracts/). */
export function compileTestContracts(): Record<string, Compiled> {
  return compileContracts(CONTRACTS);
}

/** Every *.sol in `folder` (an absolute path), compiled together: each contract by its name. */
export function compileContracts(folder: string): Record<string, Compiled> {
  const known = compiled.get(folder);
  if (known) return known;
  const result = compileFolder(folder);
  compiled.set(folder, result);
  return result;
}

function compileFolder(folder: string): Record<string, Compiled> {
  const solc = require('solc') as Solc;
  const sources = Object.fromEntries(
    readdirSync(folder).filter((f) => f.endsWith('.sol')).sort().map((f) => [f, { content: readFileSync(join(folder, f), 'utf8') }]),
  );
  const key = createHash('sha256').update(solc.version()).update(JSON.stringify(sources)).digest('hex').slice(0, 16);
  const cacheFile = join(CACHE, `${key}.json`);
  if (existsSync(cacheFile)) return JSON.parse(readFileSync(cacheFile, 'utf8')) as Record<string, Compiled>;
  const input = {
    language: 'Solidity',
    sources,
    settings: { optimizer: { enabled: true, runs: 200 }, evmVersion: 'cancun', outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } } },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((e) => e.severity === 'error');
  if (errors.length > 0) throw new Error(`solc: ${errors.map((e) => e.formattedMessage).join('\n')}`);
  const result: Record<string, Compiled> = {};
  for (const file of Object.values(output.contracts)) {
    for (const [name, contract] of Object.entries(file)) result[name] = { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
  }
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(cacheFile, JSON.stringify(result));
  return result;
}
