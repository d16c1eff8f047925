// The viem chain object for a payment network.
import { base, baseSepolia } from './base-chains.ts';
import type { Chain } from 'viem';
import type { PaymentNetwork } from '../payments/networks.ts';
import { localChain } from './fiat-token.ts';

export function viemChain(network: PaymentNetwork, rpcUrl: string): Chain {
  if (network.name === 'base') return base;
  if (network.name === 'base-sepolia') return baseSepolia;
  return localChain(network.chainId, rpcUrl);
}
