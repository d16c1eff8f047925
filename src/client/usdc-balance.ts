// A payer's USDC on the gateway's network, read from a JSON-RPC node: the local devchain's own
// (devchain.json), Base (TOOLGATE_BASE_RPC_URL, default https://mainnet.base.org), Base Sepolia
// (TOOLGATE_BASE_SEPOLIA_RPC_URL, default https://sepolia.base.org), or an explicit --rpc-url.
import { createPublicClient, erc20Abi, http, type Address } from 'viem';
import { publicNetwork } from '../payments/networks.ts';
import { readDevChainFile } from './devchain-payer.ts';

export async function rpcUrlFor(network: string, explicit: string | undefined, env: NodeJS.ProcessEnv = process.env): Promise<string> {
  if (explicit) return explicit;
  const base = publicNetwork('base');
  const baseSepolia = publicNetwork('base-sepolia');
  if (network === base.caip2) return env.TOOLGATE_BASE_RPC_URL ?? base.defaultRpcUrl!;
  if (network === baseSepolia.caip2) return env.TOOLGATE_BASE_SEPOLIA_RPC_URL ?? baseSepolia.defaultRpcUrl!;
  const devChain = await readDevChainFile(env);
  if (devChain && devChain.network === network) return devChain.rpcUrl;
  throw new Error(`no JSON-RPC endpoint known for ${network}: pass --rpc-url <url> (a local gateway's is in its devchain.json: set TOOLGATE_DATA_DIR)`);
}

export async function usdcBalance(rpcUrl: string, asset: string, owner: string): Promise<bigint> {
  const client = createPublicClient({ transport: http(rpcUrl, { timeout: 15_000, retryCount: 1 }) });
  try {
    return await client.readContract({ address: asset as Address, abi: erc20Abi, functionName: 'balanceOf', args: [owner as Address] });
  } catch (error) {
    throw new Error(`could not read the USDC balance from ${rpcUrl}: ${(error as Error).message.split('\n')[0]}`);
  }
}
