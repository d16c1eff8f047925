// The gas estimate of Base at its head block: base fees, priority fees per speed, the L1 data fee
// of typical transactions from the OP Stack GasPriceOracle, and what each costs in ETH and USD.
import { formatEther, formatGwei, parseAbi } from 'viem';
import type { Block, PublicClient } from 'viem';
import type { BaseContracts } from '../../../upstream/chain/base-contracts.ts';
import type { EthUsdPrice } from '../eth-usd.ts';
import { readEthUsd, usdValue } from '../eth-usd.ts';
import { FEE_HISTORY_BLOCKS, priorityFeesOf, SPEEDS } from './priority-fees.ts';
import type { Speed } from './priority-fees.ts';
import type { GasUnits, TransactionKind } from './typical-transactions.ts';
import { gasUnitsOf, serializedForL1, typicalTransactions } from './typical-transactions.ts';

const gasPriceOracleAbi = parseAbi(['function getL1Fee(bytes _data) view returns (uint256)']);

/** The suggested fee cap: room for the base fee to double before the transaction is included. */
const maxFeeOf = (nextBaseFee: bigint, priority: bigint) => 2n * nextBaseFee + priority;

interface Cost {
  wei: string;
  eth: string;
  usd: string | null;
}

export async function estimateGas(client: PublicClient, contracts: BaseContracts, chainId: number, head: Block<bigint, false, 'latest'>, maxAgeSeconds: number) {
  const blockNumber = head.number;
  const block = { number: blockNumber, timestamp: head.timestamp };
  const kinds = typicalTransactions(contracts);
  const [history, ethUsd, units, oracleCode] = await Promise.all([
    client.getFeeHistory({ blockCount: FEE_HISTORY_BLOCKS, blockNumber, rewardPercentiles: SPEEDS.map((s) => s.percentile) }),
    readEthUsd(client, contracts.chainlinkEthUsd, block, maxAgeSeconds),
    Promise.all(kinds.map((tx) => gasUnitsOf(client, tx, contracts, blockNumber))),
    client.getCode({ address: contracts.gasPriceOracle, blockNumber }),
  ]);
  const { fees, blocksUsed } = priorityFeesOf(history);
  const currentBaseFee = head.baseFeePerGas ?? 0n;
  // feeHistory's baseFeePerGas has one entry more than blocks: the last is the next block's.
  const nextBaseFee = history.baseFeePerGas.at(-1) ?? currentBaseFee;
  const price: EthUsdPrice | undefined = ethUsd.ok ? ethUsd.price : undefined;

  const hasOracle = oracleCode !== undefined && oracleCode !== '0x';
  const l1Fees: (bigint | null)[] = hasOracle
    ? (
        await client.multicall({
          contracts: kinds.map((tx, i) => ({
            address: contracts.gasPriceOracle,
            abi: gasPriceOracleAbi,
            functionName: 'getL1Fee' as const,
            args: [serializedForL1(tx, chainId, units[i]!.gas ?? 21_000n, maxFeeOf(nextBaseFee, fees.normal), fees.normal)] as const,
          })),
          allowFailure: true,
          blockNumber,
        })
      ).map((r) => (r.status === 'success' ? r.result : null))
    : kinds.map(() => null);

  const costOf = (wei: bigint): Cost => ({ wei: wei.toString(), eth: formatEther(wei), usd: price ? usdValue(wei, 18, price) : null });
  const costs = Object.fromEntries(
    kinds.map((tx, i) => {
      const gas = units[i]!;
      const l1Fee = l1Fees[i] ?? null;
      const perSpeed = Object.fromEntries(
        SPEEDS.map(({ speed }) => [speed, gas.gas === null ? null : costOf(gas.gas * (nextBaseFee + fees[speed]) + (l1Fee ?? 0n))]),
      ) as Record<Speed, Cost | null>;
      return [tx.kind, { description: tx.description, gasUnits: gas.gas === null ? null : Number(gas.gas), gasUnitsSource: gas.how, l1DataFee: l1Fee === null ? null : costOf(l1Fee), ...perSpeed }];
    }),
  ) as Record<TransactionKind, unknown>;

  return {
    block: { number: Number(blockNumber), timestamp: new Date(Number(head.timestamp) * 1000).toISOString() },
    baseFee: { currentGwei: formatGwei(currentBaseFee), nextBlockGwei: formatGwei(nextBaseFee) },
    priorityFees: {
      method: `eth_feeHistory over the last ${FEE_HISTORY_BLOCKS} blocks; per speed, the median over the blocks of that reward percentile (blocks without transactions left out)`,
      blocks: history.reward?.length ?? 0,
      blocksWithTransactions: blocksUsed,
      ...Object.fromEntries(SPEEDS.map(({ speed, percentile }) => [speed, { percentile, gwei: formatGwei(fees[speed]) }])),
    },
    maxFeePerGas: {
      rule: '2 x the next block\'s base fee + the priority fee',
      ...Object.fromEntries(SPEEDS.map(({ speed }) => [speed, formatGwei(maxFeeOf(nextBaseFee, fees[speed]))])),
    },
    l1DataFee: hasOracle
      ? { oracle: contracts.gasPriceOracle, method: 'GasPriceOracle.getL1Fee(the serialized transaction) at this block, per transaction kind below', available: l1Fees.some((f) => f !== null) }
      : { oracle: contracts.gasPriceOracle, available: false, note: 'this chain has no GasPriceOracle at the OP Stack predeploy address: no L1 data fee is charged or it cannot be read; costs below are L2 execution only' },
    ethUsd: price
      ? { usd: price.usd, feed: price.feed, description: price.description, roundId: price.roundId, updatedAt: price.updatedAt, ageSeconds: price.ageSeconds, stale: price.stale, maxAgeSeconds: price.maxAgeSeconds }
      : null,
    ...(ethUsd.ok ? {} : { ethUsdNote: `${ethUsd.reason}; costs are given in ETH only` }),
    costs,
    costRule: 'cost = gas units x (next block base fee + priority fee) + L1 data fee; USD at the Chainlink ETH/USD answer, truncated to 6 decimals',
  };
}
