// Gas of everything the run put on chain, from receipts: each channel transaction found by the
// settlement contract's events (deposits that created a channel, top-ups, claims with their number
// of voucher rows, settles), and the `exact` settlement transactions the run's payments named.
// Then the cost of a call for a payer making n calls with the client's default deposit.
import { createPublicClient, http, parseEventLogs, type Hex, type PublicClient } from 'viem';
import { BATCH_SETTLEMENT_ADDRESSES, batchSettlementAbi } from '../src/chain/batch-settlement-contracts.ts';
import { localChain, type DevChain } from './chain.ts';

export interface ChannelGas {
  newDeposits: number[];
  topUps: number[];
  /** One per claim transaction: voucher rows (Claimed events) and gas. */
  claims: { rows: number; gas: number }[];
  settles: number[];
  /** Least-squares fit of claim gas = fixed + perRow × rows, when the rows vary; else undefined. */
  claimFit: { fixed: number; perRow: number } | undefined;
}

export interface ExactGas {
  payments: number;
  transactions: number;
  gasPerPayment: number;
}

function client(devChain: DevChain): PublicClient {
  return createPublicClient({ chain: localChain(devChain.chainId, devChain.rpcUrl), transport: http(devChain.rpcUrl) }) as PublicClient;
}

async function gasOf(pub: PublicClient, hashes: Hex[]): Promise<Map<Hex, number>> {
  const gas = new Map<Hex, number>();
  for (let i = 0; i < hashes.length; i += 50) {
    const receipts = await Promise.all(hashes.slice(i, i + 50).map((hash) => pub.getTransactionReceipt({ hash })));
    for (const r of receipts) gas.set(r.transactionHash, Number(r.gasUsed));
  }
  return gas;
}

function fit(points: { rows: number; gas: number }[]): ChannelGas['claimFit'] {
  const n = points.length;
  const mx = points.reduce((a, p) => a + p.rows, 0) / n;
  const my = points.reduce((a, p) => a + p.gas, 0) / n;
  const sxx = points.reduce((a, p) => a + (p.rows - mx) ** 2, 0);
  if (n < 2 || sxx === 0) return undefined;
  const perRow = points.reduce((a, p) => a + (p.rows - mx) * (p.gas - my), 0) / sxx;
  return { fixed: Math.round(my - perRow * mx), perRow: Math.round(perRow) };
}

export async function channelGas(devChain: DevChain): Promise<ChannelGas> {
  const pub = client(devChain);
  const logs = await pub.getLogs({ address: BATCH_SETTLEMENT_ADDRESSES.settlement, fromBlock: 0n, toBlock: 'latest' });
  const events = parseEventLogs({ abi: batchSettlementAbi, logs }) as unknown as { eventName: string; transactionHash: Hex }[];
  const byTx = new Map<Hex, string[]>();
  for (const e of events) byTx.set(e.transactionHash, [...(byTx.get(e.transactionHash) ?? []), e.eventName]);
  const gas = await gasOf(pub, [...byTx.keys()]);
  const result: ChannelGas = { newDeposits: [], topUps: [], claims: [], settles: [], claimFit: undefined };
  for (const [hash, names] of byTx) {
    const used = gas.get(hash) ?? 0;
    if (names.includes('Deposited')) (names.includes('ChannelCreated') ? result.newDeposits : result.topUps).push(used);
    else if (names.includes('Claimed')) result.claims.push({ rows: names.filter((n) => n === 'Claimed').length, gas: used });
    else if (names.includes('Settled')) result.settles.push(used);
  }
  result.claimFit = fit(result.claims);
  return result;
}

/** Gas per `exact` payment over the settlement transactions named by successful payments. */
export async function exactGas(devChain: DevChain, transactions: Record<string, number>): Promise<ExactGas> {
  const hashes = Object.keys(transactions).filter((h) => h.startsWith('0x')) as Hex[];
  const gas = await gasOf(client(devChain), hashes);
  const payments = hashes.reduce((a, h) => a + (transactions[h] ?? 0), 0);
  const total = hashes.reduce((a, h) => a + (gas.get(h) ?? 0), 0);
  return { payments, transactions: hashes.length, gasPerPayment: payments ? Math.round(total / payments) : Number.NaN };
}

export const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** What a gas figure costs, in USDC, at a base fee (gwei) and an ETH price (USD); the L1 data fee is left out. */
export const usdOfGas = (gas: number, gwei: number, ethUsd: number) => gas * gwei * 1e-9 * ethUsd;

export interface Economics {
  callsPerPayer: number;
  deposits: number;
  gasPerCall: number;
  percentOfPrice: number;
  /** The same with a cooperative refund of the unspent deposit at the end (when something is left). */
  withRefund: { gasPerCall: number; percentOfPrice: number } | undefined;
}

export interface EconomicsAssumptions {
  priceUsdc: number;
  depositCalls: number;
  gwei: number;
  ethUsd: number;
  /** Voucher rows per claim transaction and channels per settle. */
  rowsPerClaim: number;
  /** The gateway's claim policy (TOOLGATE_CHANNEL_CLAIM_MIN_USDC): a channel gets a claim row each time it owes this. */
  claimMinUsdc: number;
  refundGas: number;
}

/**
 * A payer making n calls with a deposit of `depositCalls` prices: ⌈n / depositCalls⌉ deposits (the
 * first opens the channel, the others are top-ups), a claim row each time the channel owes the claim
 * policy's minimum (the rest claimed once it goes idle: ⌈n × price / claimMin⌉ rows), each in a claim
 * shared with rowsPerClaim−1 other channels, and its share of that pass's settle.
 */
export function economics(n: number, gas: { newDeposit: number; topUp: number; claimFixed: number; claimPerRow: number; settle: number }, a: EconomicsAssumptions): Economics {
  const deposits = Math.ceil(n / a.depositCalls);
  const rows = Math.ceil((n * a.priceUsdc) / a.claimMinUsdc - 1e-9);
  const total = gas.newDeposit + (deposits - 1) * gas.topUp + rows * (gas.claimPerRow + gas.claimFixed / a.rowsPerClaim + gas.settle / a.rowsPerClaim);
  const pct = (g: number) => (100 * usdOfGas(g, a.gwei, a.ethUsd)) / a.priceUsdc;
  const leftover = deposits * a.depositCalls - n;
  return {
    callsPerPayer: n,
    deposits,
    gasPerCall: Math.round(total / n),
    percentOfPrice: pct(total / n),
    withRefund: leftover > 0 ? { gasPerCall: Math.round((total + a.refundGas) / n), percentOfPrice: pct((total + a.refundGas) / n) } : undefined,
  };
}
