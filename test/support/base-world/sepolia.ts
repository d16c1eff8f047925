// anvil as Base Sepolia (chain id 84532): Multicall3 and Circle's USDC at their canonical Base
// Sepolia addresses, and an account with known holdings.
import { parseEther } from 'viem';
import type { Address } from 'viem';
import { startAnvil } from '../../../src/chain/anvil.ts';
import { devPrivateKey } from '../../../src/chain/dev-accounts.ts';
import { deployFiatToken, mintUsdc } from '../../../src/chain/fiat-token.ts';
import { baseContracts } from './canonical.ts';
import { multicall3CreationCode, worldClients } from './chain-tools.ts';

const CHAIN_ID = 84532;

export interface BaseSepoliaWorld {
  rpcUrl: string;
  chainId: 84532;
  usdc: Address;
  account: { address: Address; ethWei: bigint; usdcAtomic: bigint };
  stop(): Promise<void>;
}

export async function startBaseSepoliaWorld(): Promise<BaseSepoliaWorld> {
  const anvil = await startAnvil({ chainId: CHAIN_ID });
  try {
    const ownerKey = devPrivateKey('tokenOwner');
    const world = worldClients(anvil.rpcUrl, CHAIN_ID, ownerKey);
    const usdc = baseContracts.sepolia.usdc;
    await world.anvil('anvil_setCode', [baseContracts.sepolia.multicall3, await world.publicClient.call({ data: multicall3CreationCode() }).then((r) => r.data)]);
    await deployFiatToken({ rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID, proxyAdminKey: devPrivateKey('proxyAdmin'), ownerKey, name: 'USDC', at: usdc });
    const address: Address = '0x5e90000000000000000000000000000000000005';
    const ethWei = parseEther('0.25');
    await world.anvil('anvil_setBalance', [address, `0x${ethWei.toString(16)}`]);
    await mintUsdc({ rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID, ownerKey, token: usdc, to: address, amount: 20_000_000n });
    return { rpcUrl: anvil.rpcUrl, chainId: CHAIN_ID, usdc, account: { address, ethWei, usdcAtomic: 20_000_000n }, stop: () => anvil.stop() };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}
