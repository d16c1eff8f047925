// Fresh payer keys, funded with USDC by plain ERC-20 transfers from the devchain's demo payer.
// One transfer at a time, each waited for: bursts of concurrent sends can stall anvil's automine.
import { createPublicClient, createWalletClient, http, type Address, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { erc20Abi, localChain, type DevChain } from './chain.ts';

export interface Payer {
  address: Address;
  privateKey: Hex;
}

export function freshPayers(count: number): Payer[] {
  return Array.from({ length: count }, () => {
    const privateKey = generatePrivateKey();
    return { address: privateKeyToAccount(privateKey).address, privateKey };
  });
}

/** Sends `amountAtomic` USDC to each payer from devChain.payer; throws if the funder is short. */
export async function fundPayers(devChain: DevChain, payers: readonly Payer[], amountAtomic: bigint): Promise<void> {
  const chain = localChain(devChain.chainId, devChain.rpcUrl);
  const pub = createPublicClient({ chain, transport: http(devChain.rpcUrl), pollingInterval: 50 });
  const funder = createWalletClient({ chain, transport: http(devChain.rpcUrl), account: privateKeyToAccount(devChain.payer.privateKey) });
  const balance = await pub.readContract({ address: devChain.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [devChain.payer.address] });
  const needed = amountAtomic * BigInt(payers.length);
  if (balance < needed) throw new Error(`demo payer holds ${balance} atomic USDC, the payers need ${needed}`);
  for (const payer of payers) {
    const hash = await funder.writeContract({ address: devChain.usdc, abi: erc20Abi, functionName: 'transfer', args: [payer.address, amountAtomic] });
    const receipt = await pub.waitForTransactionReceipt({ hash, pollingInterval: 50, timeout: 30_000 });
    if (receipt.status !== 'success') throw new Error(`funding ${payer.address} reverted (${hash})`);
  }
}

export async function usdcBalance(devChain: DevChain, address: Address): Promise<bigint> {
  const pub = createPublicClient({ chain: localChain(devChain.chainId, devChain.rpcUrl), transport: http(devChain.rpcUrl) });
  return pub.readContract({ address: devChain.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address] });
}
