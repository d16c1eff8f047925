// The contracts of x402's batch-settlement scheme (payment channels), x402BatchSettlement and its
// ERC3009DepositCollector, put on a local chain at the canonical addresses @x402/evm hard-codes:
// through the CREATE2 deployer, with the salts of their deployment everywhere else.
import { readFileSync } from 'node:fs';
import { concat, createPublicClient, createWalletClient, getAddress, getContractAddress, http, parseEventLogs } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { Abi, Address, Hex, Log } from 'viem';
import { localChain } from './fiat-token.ts';

export interface ContractData {
  address: Address;
  salt: Hex;
  initCode: Hex;
  constructorArgs: Hex;
  abi: Abi;
}

interface BatchSettlementData {
  create2Deployer: Address;
  contracts: { x402BatchSettlement: ContractData; ERC3009DepositCollector: ContractData };
}

/** Where they are: what devchain.json names. */
export interface BatchSettlementAddresses {
  settlement: Address;
  depositCollector: Address;
}

const data = JSON.parse(
  readFileSync(new URL('./contracts/x402-batch-settlement.json', import.meta.url), 'utf8'),
) as BatchSettlementData;

export const CREATE2_DEPLOYER: Address = getAddress(data.create2Deployer);
export const batchSettlementContracts: BatchSettlementData['contracts'] = data.contracts;
export const batchSettlementAbi: Abi = data.contracts.x402BatchSettlement.abi;

export const BATCH_SETTLEMENT_ADDRESSES: BatchSettlementAddresses = {
  settlement: getAddress(data.contracts.x402BatchSettlement.address),
  depositCollector: getAddress(data.contracts.ERC3009DepositCollector.address),
};

/** The bytes the deployer runs as init code: creation code followed by the ABI-encoded constructor arguments. */
function deploymentCode(contract: ContractData): Hex {
  return concat([contract.initCode, contract.constructorArgs]);
}

/** The CREATE2 address of a contract's init code and salt; throws unless it is the canonical address. */
/** The arguments of the settlement contract's `eventName` events among a receipt's logs (other contracts' logs ignored). */
export function settlementEventArgs(receipt: { logs: readonly Log[] }, eventName: string): Record<string, unknown>[] {
  const logs = receipt.logs.filter((entry) => entry.address.toLowerCase() === BATCH_SETTLEMENT_ADDRESSES.settlement.toLowerCase());
  return parseEventLogs({ abi: batchSettlementAbi, logs, eventName }).map((entry) => (entry as unknown as { args: Record<string, unknown> }).args);
}

export function create2Address(contract: ContractData): Address {
  const computed = getContractAddress({ opcode: 'CREATE2', from: CREATE2_DEPLOYER, salt: contract.salt, bytecode: deploymentCode(contract) });
  if (computed !== getAddress(contract.address)) {
    throw new Error(`CREATE2 gives ${computed}, not the canonical ${contract.address}: the init code or salt is not the published one`);
  }
  return computed;
}

/**
 * Deploys both contracts through the CREATE2 deployer (present on anvil from genesis) and checks
 * code stands at each canonical address. A contract already there is left as it is, so this runs
 * again safely on a chain that has them. The settlement contract goes first: the collector's
 * constructor takes its address.
 */
export async function deployBatchSettlementContracts(options: { rpcUrl: string; chainId: number; deployerKey: Hex }): Promise<BatchSettlementAddresses> {
  const chain = localChain(options.chainId, options.rpcUrl);
  const transport = http(options.rpcUrl);
  const publicClient = createPublicClient({ chain, transport, pollingInterval: 20 });
  const wallet = createWalletClient({ chain, transport, account: privateKeyToAccount(options.deployerKey) });

  const deployerCode = await publicClient.getCode({ address: CREATE2_DEPLOYER });
  if (!deployerCode) throw new Error(`no CREATE2 deployer at ${CREATE2_DEPLOYER} on ${options.rpcUrl}`);

  for (const contract of [data.contracts.x402BatchSettlement, data.contracts.ERC3009DepositCollector]) {
    const address = create2Address(contract);
    if (await publicClient.getCode({ address })) continue;
    // The deployer's calldata is the salt followed by the init code.
    const hash = await wallet.sendTransaction({ to: CREATE2_DEPLOYER, data: concat([contract.salt, deploymentCode(contract)]) });
    const receipt = await publicClient.waitForTransactionReceipt({ hash, pollingInterval: 20 });
    if (receipt.status !== 'success') throw new Error(`CREATE2 deployment of ${address} reverted (${hash})`);
    if (!(await publicClient.getCode({ address }))) throw new Error(`CREATE2 deployment sent, but no code at ${address}`);
  }
  return BATCH_SETTLEMENT_ADDRESSES;
}
