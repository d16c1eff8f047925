// Base and Base Sepolia as viem chains, with the OP Stack's formatters, serializers and L2
// predeploys (viem/op-stack). Declared here rather than imported from `viem/chains`, whose index
// loads every chain viem knows (~24 MB resident) for the two we use. base-chains.test.ts holds
// these to viem's own definitions.
import { defineChain } from 'viem';
import { chainConfig } from 'viem/op-stack';

const MULTICALL3 = '0xca11bde05977b3631167028862be2a173976ca11';

export const base = defineChain({
  ...chainConfig,
  id: 8453,
  name: 'Base',
  nativeCurrency: { name: 'Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['https://mainnet.base.org'] } },
  blockExplorers: { default: { name: 'Basescan', url: 'https://basescan.org', apiUrl: 'https://api.basescan.org/api' } },
  contracts: { ...chainConfig.contracts, multicall3: { address: MULTICALL3, blockCreated: 5022 } },
});

export const baseSepolia = defineChain({
  ...chainConfig,
  id: 84532,
  name: 'Base Sepolia',
  nativeCurrency: { name: 'Sepolia Ether', symbol: 'ETH', decimals: 18 },
  rpcUrls: { default: { http: ['https://sepolia.base.org'] } },
  blockExplorers: { default: { name: 'Basescan', url: 'https://sepolia.basescan.org', apiUrl: 'https://api-sepolia.basescan.org/api' } },
  contracts: { ...chainConfig.contracts, multicall3: { address: MULTICALL3, blockCreated: 1059647 } },
  testnet: true,
});
