// The dashboard's payment-channel figures and its comparison of schemes. What the channels hold
// comes from SqlChannelClaims.summary() (what /metrics reads); the calls and the collection's
// transactions from the ledger. Gas costs are given in gwei and, with an ETH price, in USD: the
// figures a merchant reads at a glance (a claim's share of a call is hundreds of gwei).
import type { ChannelSummary } from '../../payments/channels/channel-claims.ts';
import type { ChannelCollectionReport, CollectionStepTotals } from '../../payments/ledger/channel-reports.ts';
import type { CollectionCost, LedgerTotals } from '../../payments/ledger/payment-reports.ts';
import type { LedgerScheme } from '../../payments/ledger/payment-ledger.ts';
import { money } from './money.ts';

export interface EthPriceLike {
  usd: number;
}

/** Six significant digits: enough for fractions of a cent and of a gwei. */
const figure = (value: number) => Number(value.toPrecision(6));
const gwei = (wei: bigint) => figure(Number(wei) / 1e9);
const usdOf = (wei: bigint, ethPrice: EthPriceLike | undefined) => (ethPrice ? figure((Number(wei) / 1e18) * ethPrice.usd) : null);

function stepJson(step: CollectionStepTotals, ethPrice: EthPriceLike | undefined) {
  return { transactions: step.transactions, amount: money(step.amount), gas: step.gas.toString(), feeGwei: gwei(step.feeWei), feeUsd: usdOf(step.feeWei, ethPrice) };
}

/**
 * Open channels, deposits held, vouchers not yet claimed (revenue at risk) with the nearest
 * withdrawal deadline, claimed not yet settled, and the claims, settles, deposits and refunds with their gas.
 * `summary` undefined: channels are not offered.
 */
export function channelFigures(
  summary: ChannelSummary | undefined,
  totals: LedgerTotals,
  collection: ChannelCollectionReport,
  ethPrice: EthPriceLike | undefined,
  now: Date,
) {
  const deadline = summary?.nearestDeadline;
  return {
    offered: summary !== undefined,
    open: summary?.open ?? 0,
    depositsHeld: money(summary?.deposits ?? 0n),
    /** Charged by vouchers, not yet claimed on chain: lost if a payer's withdrawal finalizes first. */
    unclaimed: money(summary?.unclaimed ?? 0n),
    nearestWithdrawDeadline: deadline === undefined ? null : new Date(deadline * 1000).toISOString(),
    secondsToDeadline: deadline === undefined ? null : Math.round(deadline - now.getTime() / 1000),
    calls: {
      received: { count: totals.byState.received.count, amount: money(totals.byState.received.amount) },
      claimed: { count: totals.byState.claimed.count, amount: money(totals.byState.claimed.amount) },
      settled: { count: totals.perScheme['batch-settlement'].collected.count, amount: money(totals.perScheme['batch-settlement'].collected.amount) },
    },
    deposited: { count: totals.byState.deposited.count, amount: money(totals.byState.deposited.amount) },
    collection: {
      deposits: stepJson(collection.deposit, ethPrice),
      claims: stepJson(collection.claim, ethPrice),
      settles: stepJson(collection.settle, ethPrice),
      /** Cooperative refunds our key sent: `amount` went back to payers, the gas is ours. */
      refunds: stepJson(collection.refund, ethPrice),
    },
  };
}

/**
 * Per scheme: calls paid, earned and collected, and what collecting cost in all and per call, next
 * to the revenue. exact: each payment's share of its settlement transaction. Channels: every
 * deposit, claim, settle and refund transaction, spread over the channel calls paid.
 */
export function schemeFigures(totals: LedgerTotals, exactCost: CollectionCost, channelCost: ChannelCollectionReport, ethPrice: EthPriceLike | undefined) {
  const costWei: Record<LedgerScheme, bigint> = {
    exact: exactCost.totalWei,
    'batch-settlement': channelCost.deposit.feeWei + channelCost.claim.feeWei + channelCost.settle.feeWei + channelCost.refund.feeWei,
  };
  return (Object.keys(costWei) as LedgerScheme[]).map((scheme) => {
    const { earned, collected } = totals.perScheme[scheme];
    const wei = costWei[scheme];
    const usd = usdOf(wei, ethPrice);
    const perCallWei = earned.count > 0 ? wei / BigInt(earned.count) : null;
    const earnedUsd = Number(earned.amount) / 1e6;
    return {
      scheme,
      calls: earned.count,
      earned: money(earned.amount),
      collected: money(collected.amount),
      cost: { gwei: gwei(wei), usd },
      costPerCall: perCallWei === null ? null : { gwei: gwei(perCallWei), usd: usdOf(perCallWei, ethPrice) },
      /** The cost as a share of what was earned, in percent (USDC counted at 1 USD). */
      costShare: usd === null || earnedUsd === 0 ? null : figure((usd / earnedUsd) * 100),
      netUsd: usd === null ? null : figure(earnedUsd - usd),
    };
  });
}
