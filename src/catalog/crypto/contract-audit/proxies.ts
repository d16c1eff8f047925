// Where a proxy keeps its implementation: the EIP-1967 slots (implementation, admin, beacon), the
// EIP-1822 PROXIABLE slot, the older ZeppelinOS slots (Circle's USDC proxy uses them), and the
// EIP-1167 minimal proxy's address in its code.
import { getAddress, parseAbi, zeroAddress } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import { providerFailureIn } from '../../../upstream/chain/chain-client.ts';
import { minimalProxyTarget } from './bytecode.ts';

export const PROXY_SLOTS = {
  eip1967Implementation: '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc',
  eip1967Admin: '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103',
  eip1967Beacon: '0xa3f0ad74e5423aebfd80d3ef4346578335a9a72aeaee59ff6cb3582b35133d50',
  eip1822Proxiable: '0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7',
  zeppelinosImplementation: '0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3',
  zeppelinosAdmin: '0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b',
} as const satisfies Record<string, Hex>;

const beaconAbi = parseAbi(['function implementation() view returns (address)']);

export interface ProxyFinding {
  kind: 'EIP-1967' | 'EIP-1967 beacon' | 'EIP-1822' | 'ZeppelinOS' | 'EIP-1167';
  implementation: Address;
  /** Who may upgrade it, when a slot says so; the zero address for none. */
  admin: Address | null;
  evidence: { slot?: Hex; value?: Hex; beacon?: Address; code?: string };
}

const addressIn = (word: Hex | undefined): Address | undefined => {
  if (!word || BigInt(word) === 0n) return undefined;
  const address = getAddress(`0x${word.slice(-40)}`);
  return address === zeroAddress ? undefined : address;
};

export async function findProxy(client: PublicClient, address: Address, code: Hex, blockNumber: bigint): Promise<ProxyFinding | undefined> {
  const clone = minimalProxyTarget(code);
  if (clone) return { kind: 'EIP-1167', implementation: clone, admin: null, evidence: { code: 'the 45-byte minimal proxy code (EIP-1167) delegating to this address; it cannot be upgraded' } };
  const slots = Object.entries(PROXY_SLOTS) as [keyof typeof PROXY_SLOTS, Hex][];
  const words = await Promise.all(slots.map(([, slot]) => client.getStorageAt({ address, slot, blockNumber })));
  const value = Object.fromEntries(slots.map(([name], i) => [name, words[i]])) as Record<keyof typeof PROXY_SLOTS, Hex | undefined>;
  const admin = (name: 'eip1967Admin' | 'zeppelinosAdmin') => addressIn(value[name]) ?? (value[name] ? zeroAddress : null);

  const eip1967 = addressIn(value.eip1967Implementation);
  if (eip1967) return { kind: 'EIP-1967', implementation: eip1967, admin: admin('eip1967Admin'), evidence: { slot: PROXY_SLOTS.eip1967Implementation, value: value.eip1967Implementation! } };
  const beacon = addressIn(value.eip1967Beacon);
  if (beacon) {
    const implementation = await client.readContract({ address: beacon, abi: beaconAbi, functionName: 'implementation', blockNumber }).catch((error: unknown) => {
      const failure = providerFailureIn(error);
      if (failure) throw failure;
      return undefined;
    });
    if (implementation) return { kind: 'EIP-1967 beacon', implementation: getAddress(implementation), admin: null, evidence: { slot: PROXY_SLOTS.eip1967Beacon, value: value.eip1967Beacon!, beacon } };
  }
  const proxiable = addressIn(value.eip1822Proxiable);
  if (proxiable) return { kind: 'EIP-1822', implementation: proxiable, admin: null, evidence: { slot: PROXY_SLOTS.eip1822Proxiable, value: value.eip1822Proxiable! } };
  const zeppelinos = addressIn(value.zeppelinosImplementation);
  if (zeppelinos) return { kind: 'ZeppelinOS', implementation: zeppelinos, admin: admin('zeppelinosAdmin'), evidence: { slot: PROXY_SLOTS.zeppelinosImplementation, value: value.zeppelinosImplementation! } };
  return undefined;
}
