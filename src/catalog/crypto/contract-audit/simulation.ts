// Honeypot and taxes by simulation, never by a transaction: one eth_call at the head block with
// state overrides puts TaxSimulator.sol's code at a throwaway address holding ETH; it buys the token
// from the WETH pool through Uniswap V2 Router02 and sells it all back, with the fee-on-transfer-
// supporting swaps, and reports each leg's router quote beside what arrived. A tax is the
// shortfall against the quote; a sell that reverts is a honeypot.
import { decodeErrorResult, decodeFunctionResult, encodeFunctionData, getAddress, parseAbi, zeroAddress } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import type { BaseContracts } from '../../../upstream/chain/base-contracts.ts';
import { providerFailureIn } from '../../../upstream/chain/chain-client.ts';
import { TAX_SIMULATOR_RUNTIME } from './tax-simulator-code.ts';

const SIMULATOR: Address = '0x000000000000000000000000000000005171a7e5';
const SENDER: Address = '0x0000000000000000000000000000000000005e4d';
/** The buy spends 0.1% of the pool's WETH (at most 1 ETH): enough to show a tax, small enough to barely move the price. */
const SHARE_OF_RESERVE = 1_000n;
const MAX_IN = 10n ** 18n;

const simulatorAbi = parseAbi([
  'struct Result { uint256 buyQuote; uint256 bought; bool buyOk; bytes buyError; uint256 sellQuote; uint256 sold; bool sellOk; bytes sellError; }',
  'function simulate(address router, address weth, address token, uint256 amountIn) returns (Result r)',
]);
const factoryAbi = parseAbi(['function getPair(address, address) view returns (address)']);
const pairAbi = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)', 'function token0() view returns (address)']);

export type Simulation =
  | { simulated: false; reason: string }
  | {
      simulated: true;
      dex: string;
      pool: { pairAddress: Address; wethReserve: string; tokenReserve: string };
      amountInWei: string;
      buy: { ok: boolean; quote: string; received: string; taxPercent: number | null; revert: string | null };
      sell: { ok: boolean; quote: string; received: string; taxPercent: number | null; revert: string | null } | null;
      honeypot: boolean;
    };

function revertReason(data: Hex): string {
  if (data === '0x') return 'reverted without a reason';
  try {
    const decoded = decodeErrorResult({ abi: parseAbi(['error Error(string)', 'error Panic(uint256)']), data });
    return `${decoded.errorName}(${decoded.args.map(String).join(', ')})`;
  } catch {
    return `reverted with data ${data.slice(0, 74)}`;
  }
}

/** (quote - received) / quote in percent, rounded to two decimals; null when there is no quote. */
function shortfallPercent(quote: bigint, received: bigint): number | null {
  if (quote === 0n) return null;
  return Math.round(Number(((quote - received) * 1_000_000n) / quote) / 100) / 100;
}

export async function simulateTrade(client: PublicClient, token: Address, contracts: BaseContracts, blockNumber: bigint): Promise<Simulation> {
  const { uniswapV2Factory: factory, uniswapV2Router02: router, weth } = contracts;
  if (!factory || !router) return { simulated: false, reason: 'no Uniswap V2 deployment is configured for this network' };
  const pair = getAddress(await client.readContract({ address: factory, abi: factoryAbi, functionName: 'getPair', args: [token, weth], blockNumber }));
  if (pair === zeroAddress) return { simulated: false, reason: 'the token has no Uniswap V2 pool with WETH on Base: no buy or sell could be simulated' };
  const [[reserve0, reserve1], token0] = await Promise.all([
    client.readContract({ address: pair, abi: pairAbi, functionName: 'getReserves', blockNumber }),
    client.readContract({ address: pair, abi: pairAbi, functionName: 'token0', blockNumber }),
  ]);
  const wethIsToken0 = getAddress(token0) === getAddress(weth);
  const wethReserve = wethIsToken0 ? reserve0 : reserve1;
  const tokenReserve = wethIsToken0 ? reserve1 : reserve0;
  const share = wethReserve / SHARE_OF_RESERVE;
  const amountIn = share > MAX_IN ? MAX_IN : share;
  if (amountIn === 0n) return { simulated: false, reason: `the pool ${pair} holds too little WETH to simulate a trade` };

  let data: Hex | undefined;
  try {
    ({ data } = await client.call({
      account: SENDER,
      to: SIMULATOR,
      data: encodeFunctionData({ abi: simulatorAbi, functionName: 'simulate', args: [router, weth, token, amountIn] }),
      blockNumber,
      stateOverride: [{ address: SIMULATOR, code: TAX_SIMULATOR_RUNTIME, balance: amountIn * 2n }],
    }));
  } catch (error) {
    const failure = providerFailureIn(error);
    if (failure) throw failure;
    return { simulated: false, reason: `the simulation call itself failed (${error instanceof Error ? error.message.split('\n')[0] : String(error)})` };
  }
  const r = decodeFunctionResult({ abi: simulatorAbi, functionName: 'simulate', data: data ?? '0x' });
  const buy = { ok: r.buyOk, quote: r.buyQuote.toString(), received: r.bought.toString(), taxPercent: r.buyOk ? shortfallPercent(r.buyQuote, r.bought) : null, revert: r.buyOk ? null : revertReason(r.buyError) };
  const sell = r.buyOk && r.bought > 0n
    ? { ok: r.sellOk, quote: r.sellQuote.toString(), received: r.sold.toString(), taxPercent: r.sellOk ? shortfallPercent(r.sellQuote, r.sold) : null, revert: r.sellOk ? null : revertReason(r.sellError) }
    : null;
  return {
    simulated: true,
    dex: 'Uniswap V2 (Router02 and factory at their Base addresses)',
    pool: { pairAddress: pair, wethReserve: wethReserve.toString(), tokenReserve: tokenReserve.toString() },
    amountInWei: amountIn.toString(),
    buy,
    sell,
    honeypot: buy.ok && sell !== null && !sell.ok,
  };
}
