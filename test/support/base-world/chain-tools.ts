// What building the world takes from anvil: clients with a short polling interval, deployments that
// wait for their receipt, and moving a deployed contract's code (and chosen slots) to an address.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createPublicClient, createWalletClient, getAddress, http } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Abi, Address, Hex, PublicClient } from 'viem';
import { localChain } from '../../../src/chain/fiat-token.ts';

const require = createRequire(import.meta.url);

export function worldClients(rpcUrl: string, chainId: number, key: Hex) {
  const chain = localChain(chainId, rpcUrl);
  const transport = http(rpcUrl);
  const publicClient: PublicClient = createPublicClient({ chain, transport, pollingInterval: 20 });
  const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(key) });
  const anvil = (method: string, params: unknown[]) => publicClient.request({ method, params } as never) as Promise<unknown>;
  const mined = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`transaction ${hash} reverted`);
    return receipt;
  };
  const deploy = async (abi: Abi, bytecode: Hex, args: readonly unknown[] = []): Promise<Address> => {
    const receipt = await mined(await wallet.deployContract({ abi, bytecode, args }));
    if (!receipt.contractAddress) throw new Error('deployment returned no address');
    return getAddress(receipt.contractAddress);
  };
  /** Puts the runtime code of `from` at `to`, with the values of `slots` copied. */
  const moveTo = async (from: Address, to: Address, slots: readonly Hex[] = []) => {
    await anvil('anvil_setCode', [to, await publicClient.getCode({ address: from })]);
    for (const slot of slots) await anvil('anvil_setStorageAt', [to, slot, await publicClient.getStorageAt({ address: from, slot })]);
  };
  return { publicClient, wallet, anvil, mined, deploy, moveTo };
}

export type WorldClients = ReturnType<typeof worldClients>;

/** An artifact of the Uniswap v2 npm packages (build/*.json). */
export function uniswapArtifact(pkg: '@uniswap/v2-core' | '@uniswap/v2-periphery', name: string): { abi: Abi; bytecode: Hex } {
  const root = dirname(require.resolve(`${pkg}/package.json`));
  const json = JSON.parse(readFileSync(join(root, 'build', `${name}.json`), 'utf8')) as { abi: Abi; bytecode: string };
  return { abi: json.abi, bytecode: (json.bytecode.startsWith('0x') ? json.bytecode : `0x${json.bytecode}`) as Hex };
}

export { multicall3CreationCode } from '../../../src/chain/multicall3.ts';

export const slot = (n: number): Hex => `0x${n.toString(16).padStart(64, '0')}`;
