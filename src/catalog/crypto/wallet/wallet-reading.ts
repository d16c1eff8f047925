// One wallet read at one block: native ETH and USDC balances exact, the nonce, the code at the
// address (a contract, an EIP-7702 delegated account or a plain account) and the USD value.
import { erc20Abi, formatEther, formatUnits, getAddress } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import type { BaseContracts } from '../../../upstream/chain/base-contracts.ts';
import type { BaseNetwork } from '../../../upstream/chain/chain-client.ts';
import { readEthUsd, usdValue } from '../eth-usd.ts';

const USDC_DECIMALS = 6;
/** EIP-7702: an account whose code is 0xef0100 followed by an address delegates to that address. */
const DELEGATION_PREFIX = '0xef0100';

export type AccountKind = { kind: 'account'; note: string } | { kind: 'delegated-account'; delegate: Address; note: string } | { kind: 'contract'; codeBytes: number; note: string };

export function accountKindOf(code: Hex | undefined): AccountKind {
  if (code === undefined || code === '0x') return { kind: 'account', note: 'no code: an externally owned account' };
  if (code.toLowerCase().startsWith(DELEGATION_PREFIX) && code.length === 2 + 46) {
    return { kind: 'delegated-account', delegate: getAddress(`0x${code.slice(8)}`), note: 'an externally owned account delegating to a contract (EIP-7702)' };
  }
  return { kind: 'contract', codeBytes: (code.length - 2) / 2, note: 'code at this address: a contract, such as a smart wallet' };
}

export async function readWallet(client: PublicClient, network: BaseNetwork, contracts: BaseContracts, address: Address, maxAgeSeconds: number) {
  const head = await client.getBlock();
  const blockNumber = head.number;
  const [eth, usdc, nonce, code, ethUsd] = await Promise.all([
    client.getBalance({ address, blockNumber }),
    client.readContract({ address: contracts.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [address], blockNumber }),
    client.getTransactionCount({ address, blockNumber }),
    client.getCode({ address, blockNumber }),
    // The valuation prices ETH at the Base mainnet feed; testnet ETH has no market value.
    network === 'mainnet' ? readEthUsd(client, contracts.chainlinkEthUsd, { number: blockNumber, timestamp: head.timestamp }, maxAgeSeconds) : undefined,
  ]);
  const price = ethUsd?.ok ? ethUsd.price : undefined;
  const ethUsdValue = price ? usdValue(eth, 18, price) : null;
  const usdcUsdValue = network === 'mainnet' ? formatUnits(usdc, USDC_DECIMALS) : null;
  const total = ethUsdValue !== null && usdcUsdValue !== null ? formatUnits(toMicros(ethUsdValue) + toMicros(usdcUsdValue), 6) : null;
  return {
    address,
    network: network === 'mainnet' ? 'base' : 'base-sepolia',
    chainId: network === 'mainnet' ? 8453 : 84532,
    block: { number: Number(blockNumber), timestamp: new Date(Number(head.timestamp) * 1000).toISOString() },
    account: accountKindOf(code),
    transactionCount: nonce,
    balances: {
      eth: { amount: formatEther(eth), atomic: eth.toString(), decimals: 18, usd: ethUsdValue },
      usdc: { token: contracts.usdc, amount: formatUnits(usdc, USDC_DECIMALS), atomic: usdc.toString(), decimals: USDC_DECIMALS, usd: usdcUsdValue },
    },
    valuation: {
      totalUsd: total,
      method: 'ETH at the Chainlink ETH/USD answer, USDC at 1 USD; exact, truncated to 6 decimals',
      ...(network === 'sepolia' ? { note: 'Base Sepolia is a test network: its ETH and USDC have no market value' } : {}),
      ...(ethUsd && !ethUsd.ok ? { note: `${ethUsd.reason}: ETH is not valued` } : {}),
    },
    ethUsd: price ? { usd: price.usd, feed: price.feed, roundId: price.roundId, updatedAt: price.updatedAt, ageSeconds: price.ageSeconds, stale: price.stale } : null,
  };
}

/** A USD decimal string with at most 6 decimals as an integer of micro-dollars. */
function toMicros(usd: string): bigint {
  const [whole, fraction = ''] = usd.split('.');
  return BigInt(whole!) * 1_000_000n + BigInt(fraction.padEnd(6, '0').slice(0, 6));
}
