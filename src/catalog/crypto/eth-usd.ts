// ETH/USD from a Chainlink price feed (AggregatorV3Interface, docs.chain.link/data-feeds/api-reference),
// read at a given block with the round's age against that block's time, and USD values of wei
// amounts computed exactly from it.
import { formatUnits, parseAbi } from 'viem';
import type { Address, PublicClient } from 'viem';

export const aggregatorV3Abi = parseAbi([
  'function latestRoundData() view returns (uint80 roundId, int256 answer, uint256 startedAt, uint256 updatedAt, uint80 answeredInRound)',
  'function decimals() view returns (uint8)',
  'function description() view returns (string)',
]);

export interface EthUsdPrice {
  /** The feed's answer as an exact decimal string: "3000.12345678". */
  usd: string;
  answer: bigint;
  decimals: number;
  feed: Address;
  description: string | null;
  roundId: string;
  updatedAt: string;
  /** Seconds between the round's update and the block read. */
  ageSeconds: number;
  maxAgeSeconds: number;
  /** Older than maxAgeSeconds: the feed may have stopped; figures priced with it say so. */
  stale: boolean;
}

export type EthUsdReading = { ok: true; price: EthUsdPrice } | { ok: false; reason: string };

/** Reads the feed in one multicall at `block`; a missing feed, a revert or a non-positive answer is "no price" with why. */
export async function readEthUsd(
  client: PublicClient,
  feed: Address | undefined,
  block: { number: bigint; timestamp: bigint },
  maxAgeSeconds: number,
): Promise<EthUsdReading> {
  if (!feed) return { ok: false, reason: 'no Chainlink ETH/USD feed is configured for this network' };
  const [round, decimals, description] = await client.multicall({
    contracts: [
      { address: feed, abi: aggregatorV3Abi, functionName: 'latestRoundData' },
      { address: feed, abi: aggregatorV3Abi, functionName: 'decimals' },
      { address: feed, abi: aggregatorV3Abi, functionName: 'description' },
    ],
    allowFailure: true,
    blockNumber: block.number,
  });
  if (round.status !== 'success' || decimals.status !== 'success') {
    return { ok: false, reason: `the Chainlink ETH/USD feed at ${feed} did not answer latestRoundData() at block ${block.number}` };
  }
  const [roundId, answer, , updatedAt] = round.result;
  if (answer <= 0n) return { ok: false, reason: `the Chainlink ETH/USD feed answered ${answer}, not a price` };
  const ageSeconds = Number(block.timestamp - updatedAt);
  return {
    ok: true,
    price: {
      usd: formatUnits(answer, decimals.result),
      answer,
      decimals: decimals.result,
      feed,
      description: description.status === 'success' ? description.result : null,
      roundId: roundId.toString(),
      updatedAt: new Date(Number(updatedAt) * 1000).toISOString(),
      ageSeconds,
      maxAgeSeconds,
      stale: ageSeconds > maxAgeSeconds,
    },
  };
}

export const USD_DECIMALS = 6;

/** USD value of `atomic` units of an asset with `decimals` at `price`, exact, truncated to 6 decimal places. */
export function usdValue(atomic: bigint, decimals: number, price: Pick<EthUsdPrice, 'answer' | 'decimals'>): string {
  const scaled = (atomic * price.answer * 10n ** BigInt(USD_DECIMALS)) / 10n ** BigInt(decimals + price.decimals);
  return formatUnits(scaled, USD_DECIMALS);
}
