// What the chain says about a token at one block: name, symbol, decimals and total supply, read in
// one Multicall3 batch. An address without code, or whose decimals() or totalSupply() fails, is not
// an ERC-20. Old tokens (MKR, SAI) return name and symbol as bytes32; those are decoded too.
import { erc20Abi, formatUnits, hexToString, parseAbi, trim } from 'viem';
import type { Address, PublicClient } from 'viem';

const bytes32MetadataAbi = parseAbi(['function name() view returns (bytes32)', 'function symbol() view returns (bytes32)']);

export interface Erc20Metadata {
  address: Address;
  name: string | null;
  symbol: string | null;
  decimals: number;
  totalSupply: { amount: string; atomic: string };
}

export type Erc20Reading = { ok: true; token: Erc20Metadata } | { ok: false; reason: string };

export async function readErc20Metadata(client: PublicClient, address: Address, blockNumber: bigint): Promise<Erc20Reading> {
  const code = await client.getCode({ address, blockNumber });
  if (code === undefined || code === '0x') return { ok: false, reason: `no contract at ${address} (an externally owned account or an empty address)` };
  const [name, symbol, decimals, totalSupply, name32, symbol32] = await client.multicall({
    contracts: [
      { address, abi: erc20Abi, functionName: 'name' },
      { address, abi: erc20Abi, functionName: 'symbol' },
      { address, abi: erc20Abi, functionName: 'decimals' },
      { address, abi: erc20Abi, functionName: 'totalSupply' },
      { address, abi: bytes32MetadataAbi, functionName: 'name' },
      { address, abi: bytes32MetadataAbi, functionName: 'symbol' },
    ],
    allowFailure: true,
    blockNumber,
  });
  if (decimals.status !== 'success' || totalSupply.status !== 'success' || decimals.result > 77) {
    return { ok: false, reason: `the contract at ${address} does not answer the ERC-20 decimals() and totalSupply() calls` };
  }
  const text = (asString: typeof name, asBytes32: typeof name32): string | null => {
    if (asString.status === 'success') return asString.result;
    if (asBytes32.status === 'success') return hexToString(trim(asBytes32.result, { dir: 'right' })) || null;
    return null;
  };
  return {
    ok: true,
    token: {
      address,
      name: text(name, name32),
      symbol: text(symbol, symbol32),
      decimals: decimals.result,
      totalSupply: { amount: formatUnits(totalSupply.result, decimals.result), atomic: totalSupply.result.toString() },
    },
  };
}
