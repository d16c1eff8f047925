// Where the world puts each contract: the canonical Base addresses the tools read by default.
export { baseContracts } from '../../../src/upstream/chain/base-contracts.ts';
import { baseContracts } from '../../../src/upstream/chain/base-contracts.ts';

export const canonical = {
  multicall3: baseContracts.mainnet.multicall3,
  usdc: baseContracts.mainnet.usdc,
  weth: baseContracts.mainnet.weth,
  chainlinkEthUsd: baseContracts.mainnet.chainlinkEthUsd!,
  uniswapV2Factory: baseContracts.mainnet.uniswapV2Factory!,
  uniswapV2Router02: baseContracts.mainnet.uniswapV2Router02!,
  gasPriceOracle: baseContracts.mainnet.gasPriceOracle,
} as const;
