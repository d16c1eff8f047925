// The networks toolgate can take payment on, and USDC on each. Base and Base Sepolia come from
// @x402/evm's own default-asset table, so our requirements match what the official client expects.
import { getDefaultAsset } from '@x402/evm';
import { getAddress } from 'viem';
import type { Address } from 'viem';

export type NetworkName = 'local' | 'base-sepolia' | 'base';
export const networkNames: readonly NetworkName[] = ['local', 'base-sepolia', 'base'];

export interface UsdcAsset {
  address: Address;
  /** EIP-712 domain name: "USD Coin" on Base, "USDC" on Base Sepolia. */
  name: string;
  version: string;
  decimals: 6;
}

export interface PaymentNetwork {
  name: NetworkName;
  caip2: `eip155:${number}`;
  chainId: number;
  usdc: UsdcAsset;
  /** Public RPC used when none is configured (rate-limited; configure your own in production). */
  defaultRpcUrl?: string;
  /** Base URL of a block explorer, for links to transactions. */
  explorerUrl?: string;
}

function publicUsdc(caip2: `eip155:${number}`): UsdcAsset {
  const asset = getDefaultAsset(caip2);
  return { address: getAddress(asset.asset), name: asset.name, version: asset.version, decimals: 6 };
}

export function publicNetwork(name: Exclude<NetworkName, 'local'>): PaymentNetwork {
  if (name === 'base') {
    return {
      name, caip2: 'eip155:8453', chainId: 8453, usdc: publicUsdc('eip155:8453'),
      defaultRpcUrl: 'https://mainnet.base.org', explorerUrl: 'https://basescan.org',
    };
  }
  return {
    name, caip2: 'eip155:84532', chainId: 84532, usdc: publicUsdc('eip155:84532'),
    defaultRpcUrl: 'https://sepolia.base.org', explorerUrl: 'https://sepolia.basescan.org',
  };
}

export function localNetwork(chainId: number, usdc: Address, tokenName: string): PaymentNetwork {
  return {
    name: 'local',
    caip2: `eip155:${chainId}`,
    chainId,
    usdc: { address: getAddress(usdc), name: tokenName, version: '2', decimals: 6 },
  };
}
