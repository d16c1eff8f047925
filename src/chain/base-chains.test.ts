import assert from 'node:assert/strict';
import test from 'node:test';
import * as viemChains from 'viem/chains';
import { base, baseSepolia } from './base-chains.ts';

for (const [ours, theirs] of [
  [base, viemChains.base],
  [baseSepolia, viemChains.baseSepolia],
] as const) {
  test(`${ours.name} is viem's own definition, but for the L1 contracts we never call`, () => {
    for (const field of ['id', 'name', 'nativeCurrency', 'rpcUrls', 'blockExplorers', 'formatters', 'serializers', 'fees', 'testnet'] as const) {
      assert.deepEqual(ours[field], theirs[field], field);
    }
    for (const [name, contract] of Object.entries(ours.contracts ?? {})) {
      assert.deepEqual(contract, (theirs.contracts as Record<string, unknown>)[name], `contract ${name}`);
    }
  });
}
