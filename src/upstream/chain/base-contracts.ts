// The canonical contracts the crypto tools read, per network (Base docs "Contract addresses",
// Circle's USDC addresses, Chainlink's data feeds list, Uniswap's v2 deployments on Base, the OP
// Stack predeploys). Tests put real or stand-in contracts at exactly these addresses on anvil.
import type { Address } from 'viem';
import type { BaseNetwork } from './chain-client.ts';

export interface BaseContracts {
  multicall3: Address;
  usdc: Address;
  weth: Address;
  /** Chainlink ETH/USD price feed (AggregatorV3Interface); none published for Base Sepolia here. */
  chainlinkEthUsd?: Address;
  uniswapV2Router02?: Address;
  uniswapV2Factory?: Address;
  /** OP Stack predeploy: L1 data fee of a transaction. */
  gasPriceOracle: Address;
}

const MULTICALL3: Address = '0xcA11bde05977b3631167028862bE2a173976CA11';
const WETH: Address = '0x4200000000000000000000000000000000000006';
const GAS_PRICE_ORACLE: Address = '0x420000000000000000000000000000000000000F';

export const baseContracts: Readonly<Record<BaseNetwork, BaseContracts>> = {
  mainnet: {
    multicall3: MULTICALL3,
    usdc: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
    weth: WETH,
    chainlinkEthUsd: '0x71041dddad3595F9CEd3DcCFBe3D1F4b0a16Bb70',
    uniswapV2Router02: '0x4752ba5DBc23f44D87826276BF6Fd6b1C372aD24',
    uniswapV2Factory: '0x8909Dc15e40173Ff4699343b6eB8132c65e18eC6',
    gasPriceOracle: GAS_PRICE_ORACLE,
  },
  sepolia: {
    multicall3: MULTICALL3,
    usdc: '0x036CbD53842c5426634e7929541eC2318f3dCF7e',
    weth: WETH,
    gasPriceOracle: GAS_PRICE_ORACLE,
  },
};
