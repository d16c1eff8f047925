// Local mode: a real EVM on loopback (anvil) with Circle's USDC deployed, the batch-settlement
// (payment channel) contracts at their canonical addresses and a funded demo payer, so `npm start`
// works with no configuration and nothing to sign up for.
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseUnits } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Address, Hex } from 'viem';
import { startAnvil } from './anvil.ts';
import { deployBatchSettlementContracts } from './batch-settlement-contracts.ts';
import type { BatchSettlementAddresses } from './batch-settlement-contracts.ts';
import { devPrivateKey } from './dev-accounts.ts';
import { deployFiatToken, mintUsdc } from './fiat-token.ts';
import { MULTICALL3_ADDRESS, multicall3CreationCode } from './multicall3.ts';

export const LOCAL_CHAIN_ID = 31337;
export const DEMO_PAYER_USDC = '1000';

/** What `devchain.json` holds, exactly. */
export interface DevChainFile {
  rpcUrl: string;
  chainId: number;
  network: `eip155:${number}`;
  usdc: Address;
  payTo: Address;
  payer: { address: Address; privateKey: Hex };
  /** The local USDC's EIP-712 name. */
  tokenName: string;
  /** x402 batch-settlement (payment channels): x402BatchSettlement and its ERC3009DepositCollector. */
  batchSettlement: BatchSettlementAddresses;
}

export interface DevChain extends DevChainFile {
  settlerKey: Hex;
  stop(): Promise<void>;
}

/**
 * Automine, plus a block every second as a backstop: anvil's automine can leave a ready transaction
 * unmined until something else arrives (foundry-rs/foundry#10122, seen here even with one sender).
 * A test that needs a transaction to stay pending turns both off (test/support/mining.ts).
 */
export const DEV_CHAIN_MINING = ['--mixed-mining', '--block-time', '1'] as const;

export async function startDevChain(options: { tokenName: string; anvilArgs?: readonly string[] }): Promise<DevChain> {
  const anvil = await startAnvil({ chainId: LOCAL_CHAIN_ID, args: options.anvilArgs ?? DEV_CHAIN_MINING });
  try {
    const ownerKey = devPrivateKey('tokenOwner');
    const token = await deployFiatToken({
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      proxyAdminKey: devPrivateKey('proxyAdmin'),
      ownerKey,
      name: options.tokenName,
    });
    await installMulticall3(anvil.rpcUrl);
    const batchSettlement = await deployBatchSettlementContracts({ rpcUrl: anvil.rpcUrl, chainId: anvil.chainId, deployerKey: ownerKey });
    const payerKey = devPrivateKey('demoPayer');
    const payer = privateKeyToAccount(payerKey);
    await mintUsdc({
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      ownerKey,
      token: token.address,
      to: payer.address,
      amount: parseUnits(DEMO_PAYER_USDC, 6),
    });
    return {
      rpcUrl: anvil.rpcUrl,
      chainId: anvil.chainId,
      network: `eip155:${anvil.chainId}`,
      usdc: token.address,
      payTo: privateKeyToAccount(devPrivateKey('payTo')).address,
      payer: { address: payer.address, privateKey: payerKey },
      tokenName: token.name,
      batchSettlement,
      settlerKey: devPrivateKey('settler'),
      stop: anvil.stop,
    };
  } catch (error) {
    await anvil.stop();
    throw error;
  }
}

async function anvilRpc(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
  });
  const body = (await response.json()) as { result?: unknown; error?: { message: string } };
  if (body.error) throw new Error(`${method}: ${body.error.message}`);
  return body.result;
}

/** Multicall3 at its canonical address: what its constructor returns, placed with anvil_setCode. */
async function installMulticall3(rpcUrl: string): Promise<void> {
  const runtime = await anvilRpc(rpcUrl, 'eth_call', [{ data: multicall3CreationCode() }, 'latest']);
  await anvilRpc(rpcUrl, 'anvil_setCode', [MULTICALL3_ADDRESS, runtime]);
}

/** Gives configured settler keys gas money on the local chain (10,000 ETH each, as anvil's own accounts). */
export async function fundDevAccounts(rpcUrl: string, addresses: readonly Address[]): Promise<void> {
  for (const address of addresses) await anvilRpc(rpcUrl, 'anvil_setBalance', [address, `0x${parseUnits('10000', 18).toString(16)}`]);
}

export async function writeDevChainFile(dataDir: string, chain: DevChainFile): Promise<string> {
  await mkdir(dataDir, { recursive: true });
  const path = join(dataDir, 'devchain.json');
  const file: DevChainFile = {
    rpcUrl: chain.rpcUrl,
    chainId: chain.chainId,
    network: chain.network,
    usdc: chain.usdc,
    payTo: chain.payTo,
    payer: chain.payer,
    tokenName: chain.tokenName,
    batchSettlement: chain.batchSettlement,
  };
  await writeFile(path, `${JSON.stringify(file, null, 2)}\n`, { mode: 0o600 });
  return path;
}

/**
 * A local chain another process started (its devchain.json): this instance uses it and leaves it
 * running when it stops. Several local instances can so share one chain, and a chain outlives a
 * crashed gateway.
 */
export async function attachDevChain(path: string): Promise<DevChain> {
  let file: Partial<DevChainFile>;
  try {
    file = JSON.parse(await readFile(path, 'utf8')) as Partial<DevChainFile>;
  } catch (error) {
    throw new Error(`TOOLGATE_LOCAL_CHAIN_FILE: cannot read ${path}: ${(error as Error).message}`);
  }
  const missing = (['rpcUrl', 'chainId', 'network', 'usdc', 'payTo', 'payer', 'tokenName', 'batchSettlement'] as const).filter((k) => file[k] === undefined);
  if (missing.length > 0) throw new Error(`TOOLGATE_LOCAL_CHAIN_FILE: ${path} lacks ${missing.join(', ')} (write it with this version of toolgate)`);
  return { ...(file as DevChainFile), settlerKey: devPrivateKey('settler'), stop: async () => undefined };
}
