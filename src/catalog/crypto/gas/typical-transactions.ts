// The three transactions a gas estimate is priced for, and how many gas units each takes. An ETH
// transfer's 21,000 is the protocol's intrinsic cost; an ERC-20 transfer (USDC between two holders)
// and a swap (ETH for USDC on Uniswap V2's Router02) are measured on the chain with eth_estimateGas
// and state overrides (a throwaway sender given the balance it needs), never sent.
import { encodeAbiParameters, encodeFunctionData, keccak256, maxUint256, parseAbi, serializeTransaction, toHex } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import type { BaseContracts } from '../../../upstream/chain/base-contracts.ts';
import { providerFailureIn } from '../../../upstream/chain/chain-client.ts';

export type TransactionKind = 'ethTransfer' | 'erc20Transfer' | 'swap';

export interface TypicalTransaction {
  kind: TransactionKind;
  description: string;
  to: Address;
  value: bigint;
  data: Hex;
}

/** Throwaway addresses: nobody holds their keys, so nothing read or simulated for them is anyone's. */
const SENDER: Address = '0x00000000000000000000000000000000000a11ce';
const RECIPIENT: Address = '0x0000000000000000000000000000000000000b0b';
/** FiatTokenV2_2 (USDC on Base) keeps balances in the mapping at storage slot 9 (low 255 bits; the top bit is the blacklist flag). */
const FIAT_TOKEN_BALANCE_SLOT = 9n;
const ONE_THOUSAND_USDC = 1_000_000_000n;
const SWAP_VALUE = 10n ** 16n; // 0.01 ETH

const erc20Abi = parseAbi(['function transfer(address to, uint256 amount) returns (bool)']);
const routerAbi = parseAbi(['function swapExactETHForTokens(uint256 amountOutMin, address[] path, address to, uint256 deadline) payable returns (uint256[] amounts)']);

export function typicalTransactions(contracts: BaseContracts): TypicalTransaction[] {
  const kinds: TypicalTransaction[] = [
    { kind: 'ethTransfer', description: 'a plain ETH transfer', to: RECIPIENT, value: 10n ** 16n, data: '0x' },
    {
      kind: 'erc20Transfer',
      description: 'a USDC transfer between two addresses that already hold USDC',
      to: contracts.usdc,
      value: 0n,
      data: encodeFunctionData({ abi: erc20Abi, functionName: 'transfer', args: [RECIPIENT, 1_000_000n] }),
    },
  ];
  if (contracts.uniswapV2Router02) {
    kinds.push({
      kind: 'swap',
      description: 'a swap of 0.01 ETH for USDC through Uniswap V2 Router02 (swapExactETHForTokens, WETH -> USDC)',
      to: contracts.uniswapV2Router02,
      value: SWAP_VALUE,
      data: encodeFunctionData({ abi: routerAbi, functionName: 'swapExactETHForTokens', args: [0n, [contracts.weth, contracts.usdc], SENDER, maxUint256] }),
    });
  }
  return kinds;
}

/** The transaction as the sequencer would post it to L1, for the GasPriceOracle's getL1Fee (unsigned, as viem's op-stack estimateL1Fee sends it). */
export function serializedForL1(tx: TypicalTransaction, chainId: number, gas: bigint, maxFeePerGas: bigint, maxPriorityFeePerGas: bigint): Hex {
  return serializeTransaction({ chainId, type: 'eip1559', nonce: 100, to: tx.to, value: tx.value, data: tx.data, gas, maxFeePerGas, maxPriorityFeePerGas });
}

const balanceSlot = (holder: Address): Hex => keccak256(encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [holder, FIAT_TOKEN_BALANCE_SLOT]));

export type GasUnits = { gas: bigint; measured: boolean; how: string } | { gas: null; measured: false; how: string };

/** Gas units of `tx` at `blockNumber`, measured with eth_estimateGas where it is not a protocol constant. */
export async function gasUnitsOf(client: PublicClient, tx: TypicalTransaction, contracts: BaseContracts, blockNumber: bigint): Promise<GasUnits> {
  if (tx.kind === 'ethTransfer') return { gas: 21_000n, measured: false, how: 'intrinsic gas of a transaction without calldata (protocol constant)' };
  const holding = toHex(ONE_THOUSAND_USDC, { size: 32 });
  // A call to an address without code "succeeds" as a plain transfer: measure only real contracts.
  const code = await client.getCode({ address: tx.to, blockNumber });
  if (code === undefined || code === '0x') return { gas: null, measured: false, how: `could not be measured: no contract at ${tx.to} on this chain` };
  try {
    const gas = await client.estimateGas({
      account: SENDER,
      to: tx.to,
      value: tx.value,
      data: tx.data,
      blockNumber,
      stateOverride: [
        { address: SENDER, balance: 10n ** 18n },
        { address: contracts.usdc, stateDiff: [{ slot: balanceSlot(SENDER), value: holding }, { slot: balanceSlot(RECIPIENT), value: holding }] },
      ],
    });
    return { gas, measured: true, how: `eth_estimateGas at block ${blockNumber} with state overrides (a throwaway sender holding 1 ETH and 1,000 USDC)` };
  } catch (error) {
    const failure = providerFailureIn(error);
    if (failure) throw failure;
    const reason = error instanceof Error ? (('shortMessage' in error && typeof error.shortMessage === 'string' ? error.shortMessage : error.message)) : String(error);
    return { gas: null, measured: false, how: `could not be measured: eth_estimateGas failed (${reason.slice(0, 160)})` };
  }
}
