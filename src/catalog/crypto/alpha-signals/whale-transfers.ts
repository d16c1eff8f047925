// Whale alerts: USDC and WETH Transfer logs over a bounded window of recent blocks, each transfer
// worth at least the threshold in USD reported with the facts behind it. The window is read in
// chunks of blocks pinned by number (cached per chunk), and the number of logs read is capped.
import { formatUnits, getAddress, parseAbiItem, zeroAddress } from 'viem';
import type { Address, PublicClient } from 'viem';
import type { EthUsdPrice } from '../eth-usd.ts';
import { usdValue } from '../eth-usd.ts';

const transferEvent = parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)');

/** Blocks per eth_getLogs request: USDC on Base moves many times per block, and public nodes cap answers. */
export const BLOCKS_PER_REQUEST = 10;
/** Logs read at most per call; beyond it the scan stops and says so. */
export const MAX_LOGS_SCANNED = 20_000;
export const MAX_ALERTS = 25;

export interface WatchedToken {
  symbol: 'USDC' | 'WETH';
  address: Address;
  decimals: number;
}

export interface WhaleAlert {
  type: 'whale_transfer' | 'whale_mint' | 'whale_burn';
  token: string;
  tokenAddress: Address;
  txHash: string;
  blockNumber: number;
  logIndex: number;
  from: Address;
  to: Address;
  amount: string;
  atomic: string;
  usd: string;
}

export interface WhaleScan {
  alerts: WhaleAlert[];
  logsScanned: number;
  complete: boolean;
  notes: string[];
}

/** The smallest atomic amount of `token` worth `minUsd`, or undefined when it cannot be priced. */
export function thresholdAtomic(token: WatchedToken, minUsd: number, ethUsd: EthUsdPrice | undefined): bigint | undefined {
  const usd = BigInt(minUsd);
  if (token.symbol === 'USDC') return usd * 10n ** BigInt(token.decimals);
  if (!ethUsd) return undefined;
  // ceil(minUsd * 10^decimals * 10^feedDecimals / answer)
  const numerator = usd * 10n ** BigInt(token.decimals + ethUsd.decimals);
  return (numerator + ethUsd.answer - 1n) / ethUsd.answer;
}

function chunks(fromBlock: bigint, toBlock: bigint): { from: bigint; to: bigint }[] {
  const out: { from: bigint; to: bigint }[] = [];
  for (let from = fromBlock; from <= toBlock; from += BigInt(BLOCKS_PER_REQUEST)) {
    const to = from + BigInt(BLOCKS_PER_REQUEST) - 1n;
    out.push({ from, to: to > toBlock ? toBlock : to });
  }
  return out;
}

export async function scanWhaleTransfers(
  client: PublicClient,
  tokens: readonly WatchedToken[],
  window: { fromBlock: bigint; toBlock: bigint },
  minUsd: number,
  ethUsd: EthUsdPrice | undefined,
): Promise<WhaleScan> {
  const notes: string[] = [];
  const alerts: WhaleAlert[] = [];
  let logsScanned = 0;
  let complete = true;
  for (const token of tokens) {
    const minimum = thresholdAtomic(token, minUsd, ethUsd);
    if (minimum === undefined) {
      notes.push(`${token.symbol} transfers were not scanned: without an ETH/USD price they cannot be valued`);
      complete = false;
      continue;
    }
    // Newest chunks first, so a capped scan keeps the most recent blocks.
    for (const range of chunks(window.fromBlock, window.toBlock).reverse()) {
      if (logsScanned >= MAX_LOGS_SCANNED) {
        complete = false;
        notes.push(`stopped after ${logsScanned} logs (the cap per call); ${token.symbol} blocks ${window.fromBlock}-${range.to} were not scanned`);
        break;
      }
      const logs = await client.getLogs({ address: token.address, event: transferEvent, fromBlock: range.from, toBlock: range.to, strict: true });
      logsScanned += logs.length;
      for (const log of logs) {
        const { from, to, value } = log.args;
        if (value < minimum) continue;
        const price = token.symbol === 'USDC' ? { answer: 1n, decimals: 0 } : ethUsd!;
        alerts.push({
          type: from === zeroAddress ? 'whale_mint' : to === zeroAddress ? 'whale_burn' : 'whale_transfer',
          token: token.symbol,
          tokenAddress: token.address,
          txHash: log.transactionHash,
          blockNumber: Number(log.blockNumber),
          logIndex: log.logIndex,
          from: getAddress(from),
          to: getAddress(to),
          amount: formatUnits(value, token.decimals),
          atomic: value.toString(),
          usd: usdValue(value, token.decimals, price),
        });
      }
    }
  }
  alerts.sort((a, b) => Number(b.usd) - Number(a.usd) || b.blockNumber - a.blockNumber);
  if (alerts.length > MAX_ALERTS) notes.push(`${alerts.length} transfers passed the threshold; the ${MAX_ALERTS} largest are listed`);
  return { alerts: alerts.slice(0, MAX_ALERTS), logsScanned, complete, notes };
}
