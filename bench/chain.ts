// Shared chain vocabulary for the bench: the devchain.json shape, anvil's dev accounts, a viem chain
// for the local network, and the two ERC-20 calls the bench needs.
import { readFile } from 'node:fs/promises';
import type { Address, Hex } from 'viem';
import { mnemonicToAccount, type HDAccount } from 'viem/accounts';
import { ANVIL_MNEMONIC } from '../src/chain/dev-accounts.ts';

export { localChain } from '../src/chain/fiat-token.ts';

/** What toolgate writes to <TOOLGATE_DATA_DIR>/devchain.json in local mode (and what our own devchain returns). */
export interface DevChain {
  rpcUrl: string;
  chainId: number;
  /** CAIP-2, e.g. "eip155:31337". */
  network: `${string}:${string}`;
  usdc: Address;
  payTo: Address;
  /** Holds USDC and ETH; the bench funds its payers from it. */
  payer: { address: Address; privateKey: Hex };
}


/** Anvil dev-account roles, as toolgate uses them (#1-#5), plus the reference app's settler (#6). */
export const ROLE = { proxyAdmin: 1, tokenOwner: 2, toolgateSettler: 3, payTo: 4, demoPayer: 5, referenceSettler: 6 } as const;

export function devAccount(index: number): HDAccount {
  return mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: index });
}

export function devPrivateKey(index: number): Hex {
  const key = devAccount(index).getHdKey().privateKey;
  if (!key) throw new Error(`no private key for dev account #${index}`);
  return `0x${Buffer.from(key).toString('hex')}`;
}


export async function readDevChain(file: string): Promise<DevChain> {
  const parsed = JSON.parse(await readFile(file, 'utf8')) as Partial<DevChain>;
  for (const key of ['rpcUrl', 'chainId', 'network', 'usdc', 'payTo', 'payer'] as const) {
    if (parsed[key] === undefined) throw new Error(`${file}: missing "${key}"`);
  }
  return parsed as DevChain;
}

export const erc20Abi = [
  {
    type: 'function',
    name: 'transfer',
    stateMutability: 'nonpayable',
    inputs: [
      { name: 'to', type: 'address' },
      { name: 'value', type: 'uint256' },
    ],
    outputs: [{ name: '', type: 'bool' }],
  },
  {
    type: 'function',
    name: 'balanceOf',
    stateMutability: 'view',
    inputs: [{ name: 'account', type: 'address' }],
    outputs: [{ name: '', type: 'uint256' }],
  },
] as const;

/** Price of the benchmarked route: 0.001 USDC in atomic units (6 decimals). */
export const PRICE_ATOMIC = '1000';
export const ROUTE = '/api/tools/uuid';
