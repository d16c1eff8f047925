// The figures behind the dashboard, as JSON: built from the catalogue (names, titles, prices, routes),
// the ledger's reports (money, settlements) and the call metrics (calls and outcomes since start).
// Money is exact: atomic USDC as an integer string beside its decimal form.
import { formatEther } from 'viem';
import type { Tool } from '../../catalog/tool.ts';
import type { HealthReport } from '../../health.ts';
import type { CallMetrics, CallOutcomeKind } from '../../payments/call-metrics.ts';
import type { PaymentState } from '../../payments/ledger/payment-ledger.ts';
import type { AmountCount, PaymentReports, ReportedPayment, SettlementLatencyReport } from '../../payments/ledger/payment-reports.ts';
import type { ChannelSummary } from '../../payments/channels/channel-claims.ts';
import { usdcToAtomic } from '../../payments/price.ts';
import type { PaymentTerms } from '../../payments/requirements.ts';
import { channelFigures, schemeFigures } from './channel-figures.ts';
import type { DashboardAccess } from './dashboard-access.ts';
import { money } from './money.ts';

export { money } from './money.ts';
export type { Money } from './money.ts';

/** One upstream provider's state, for when upstream-backed tools exist. */
export interface UpstreamHealth {
  name: string;
  ok: boolean | null;
  detail?: string;
}

export interface DashboardSources {
  catalog: readonly Tool[];
  reports: PaymentReports;
  metrics: CallMetrics;
  terms: PaymentTerms;
  facilitatorKind: string;
  health: () => Promise<HealthReport>;
  /** The upstream providers the tools depend on; none yet. */
  upstreams?: () => Promise<UpstreamHealth[]>;
  /** ETH in USD, to put the gas of settlements next to the revenue; undefined when unknown. */
  ethPrice?: () => Promise<EthPrice | undefined>;
  /** What the payment channels hold (SqlChannelClaims.summary, as /metrics reads it); absent when channels are not offered. */
  channels?: () => Promise<ChannelSummary>;
  now?: () => Date;
}

export interface EthPrice {
  usd: number;
  /** Where the figure comes from: `TOOLGATE_ETH_PRICE_USD`, or the Chainlink feed on Base with its time. */
  source: string;
}

/** Outcomes the caller is not charged for, and what each means. `payment_required` is the 402 handshake. */
export const outcomeKinds: Readonly<Record<CallOutcomeKind, string>> = {
  paid: 'Paid: the tool ran and the payment settled',
  refunded: 'A payment channel refunded on the payer\'s request: no tool ran, nothing charged',
  payment_required: 'Asked to pay (402): no payment, or one refused',
  invalid_payment: 'Malformed payment (400): not an x402 v2 payment; asked to pay again',
  invalid_input: 'Bad input (400), refused before any payment',
  not_implemented: 'Tool not built yet (501)',
  tool_failed: 'The tool failed or timed out; the authorization was released',
  unavailable: 'Ledger or facilitator unreachable (503)',
  settlement_failed: 'Settlement failed or pending; the result was withheld',
  conflict: 'A payment-identifier reused for another request, or its first attempt still running (409)',
};

export const DEFAULT_REVENUE_DAYS = 14;
export const MAX_REVENUE_DAYS = 90;
const LATENCY_SAMPLE = 1_000;
/** However many dashboards poll, the ledger is asked for the figures at most once per this. */
const FIGURES_CACHE_MS = 1_000;
const RECENT_CALLS = 25;
const LISTED_PAYMENTS = 50;

function explorerLink(explorerUrl: string | undefined, kind: 'tx' | 'address', value: string | null): string | null {
  if (!explorerUrl || !value) return null;
  const valid = kind === 'tx' ? /^0x[0-9a-fA-F]{64}$/ : /^0x[0-9a-fA-F]{40}$/;
  return valid.test(value) ? `${explorerUrl}/${kind}/${value}` : null;
}

const roundMs = (ms: number | null) => (ms === null ? null : Math.round(ms * 10) / 10);

function latencyJson(latency: SettlementLatencyReport) {
  return {
    sample: latency.sample,
    p50Ms: roundMs(latency.p50Ms),
    p90Ms: roundMs(latency.p90Ms),
    p99Ms: roundMs(latency.p99Ms),
    maxMs: roundMs(latency.maxMs),
    meanMs: roundMs(latency.meanMs),
    histogram: latency.histogram,
  };
}

const stateJson = (entry: AmountCount) => ({ count: entry.count, amount: money(entry.amount) });

export class DashboardData {
  private readonly now: () => Date;
  private readonly byName: ReadonlyMap<string, Tool>;
  private readonly cachedFigures = new Map<number, { at: number; figures: Promise<Awaited<ReturnType<DashboardData['figures']>>> }>();

  constructor(private readonly sources: DashboardSources) {
    this.now = sources.now ?? (() => new Date());
    this.byName = new Map(sources.catalog.map((tool) => [tool.name, tool]));
  }

  /** Everything public: aggregates only, no payer, no transaction, nothing about a caller. */
  async overview(access: DashboardAccess, days = DEFAULT_REVENUE_DAYS) {
    const now = Date.now();
    let entry = this.cachedFigures.get(days);
    if (!entry || now - entry.at >= FIGURES_CACHE_MS) {
      entry = { at: now, figures: this.figures(days) };
      this.cachedFigures.set(days, entry);
      entry.figures.catch(() => this.cachedFigures.delete(days));
    }
    const { generatedAt, ...figures } = await entry.figures;
    return { generatedAt, access: accessJson(access), ...figures };
  }

  private async figures(days: number) {
    const { reports, metrics, terms } = this.sources;
    const [totals, perDay, latency, cost, channelCost, channelSummary, ethPrice] = await Promise.all([
      reports.totals(),
      reports.revenuePerDay({ days, now: this.now() }),
      reports.settlementLatency({ sampleSize: LATENCY_SAMPLE }),
      reports.collectionCost(),
      reports.channelCollection(),
      this.sources.channels?.() ?? Promise.resolve(undefined),
      this.sources.ethPrice?.().catch(() => undefined) ?? Promise.resolve(undefined),
    ]);
    const costByTool = new Map(cost.perTool.map((entry) => [entry.tool, entry]));
    const states = totals.byState;

    const callsByTool = metrics.tools();
    const revenueByTool = new Map(totals.revenuePerTool.map((entry) => [entry.tool, entry]));
    const names = [...new Set([...this.sources.catalog.map((t) => t.name), ...callsByTool.keys(), ...revenueByTool.keys(), ...costByTool.keys()])];
    const tools = names
      .map((name) => {
        const tool = this.byName.get(name);
        const counts = callsByTool.get(name);
        const earned = revenueByTool.get(name);
        const paid = counts?.byKind.paid ?? 0;
        return {
          name,
          title: tool?.title ?? name,
          price: tool ? money(usdcToAtomic(tool.price)) : null,
          calls: counts?.calls ?? 0,
          paid,
          notCharged: (counts?.calls ?? 0) - paid,
          byKind: { ...counts?.byKind },
          meanDurationMs: counts && counts.calls > 0 ? roundMs(counts.totalDurationMs / counts.calls) : null,
          revenue: money(earned?.amount ?? 0n),
          settledPayments: earned?.count ?? 0,
          /** Revenue by scheme: `exact` settled, channel calls charged. */
          revenueByScheme: {
            exact: money(earned?.perScheme.exact?.amount ?? 0n),
            'batch-settlement': money(earned?.perScheme['batch-settlement']?.amount ?? 0n),
          },
          channelCalls: earned?.perScheme['batch-settlement']?.count ?? 0,
          collection: collectionJson(costByTool.get(name), earned?.amount ?? 0n, ethPrice),
        };
      })
      .sort((a, b) => compareBigint(BigInt(b.revenue.atomic), BigInt(a.revenue.atomic)) || b.calls - a.calls || a.name.localeCompare(b.name));

    const byKind: Partial<Record<CallOutcomeKind, number>> = {};
    const byCode: Record<string, number> = {};
    for (const counts of callsByTool.values()) {
      for (const [kind, n] of Object.entries(counts.byKind) as [CallOutcomeKind, number][]) byKind[kind] = (byKind[kind] ?? 0) + n;
      for (const [code, n] of Object.entries(counts.byCode)) byCode[code] = (byCode[code] ?? 0) + n;
    }
    const total = tools.reduce((sum, t) => sum + t.calls, 0);
    const paid = byKind.paid ?? 0;

    return {
      generatedAt: this.now().toISOString(),
      service: {
        network: { name: terms.network.name, id: terms.network.caip2, chainId: terms.network.chainId, explorerUrl: terms.network.explorerUrl ?? null },
        usdc: { address: terms.network.usdc.address, name: terms.network.usdc.name, version: terms.network.usdc.version },
        payTo: terms.payTo,
        payToUrl: explorerLink(terms.network.explorerUrl, 'address', terms.payTo),
        facilitator: this.sources.facilitatorKind,
        metricsSince: metrics.startedAt.toISOString(),
      },
      collection: {
        ...collectionJson({ costWei: cost.totalWei, payments: cost.payments }, totals.revenue.amount, ethPrice),
        ethPriceUsd: ethPrice?.usd ?? null,
        ethPriceSource: ethPrice?.source ?? null,
      },
      revenue: {
        total: money(totals.revenue.amount),
        settledPayments: totals.revenue.count,
        collected: money(totals.perScheme.exact.collected.amount + totals.perScheme['batch-settlement'].collected.amount),
        perDay: perDay.map((d) => ({ day: d.day, revenue: money(d.amount), payments: d.count })),
      },
      calls: {
        total,
        paid,
        notCharged: total - paid,
        byKind: Object.fromEntries(
          (Object.keys(outcomeKinds) as CallOutcomeKind[]).map((kind) => [kind, { count: byKind[kind] ?? 0, meaning: outcomeKinds[kind] }]),
        ),
        byCode,
      },
      tools,
      schemes: schemeFigures(totals, cost, channelCost, ethPrice),
      channels: channelFigures(channelSummary, totals, channelCost, ethPrice, this.now()),
      settlement: {
        states: {
          settled: stateJson(states.settled),
          pending: stateJson(states.pending),
          failed: stateJson(states.failed),
          released: stateJson(states.released),
          inFlight: stateJson(sumStates(states, ['verified', 'running', 'settling'])),
        },
        latency: latencyJson(latency),
      },
      recentCalls: metrics
        .recent()
        .slice(-RECENT_CALLS)
        .reverse()
        .map((event) => ({
          at: event.at.toISOString(), tool: event.tool, face: event.face, kind: event.kind, code: event.code ?? null,
          durationMs: roundMs(event.durationMs),
        })),
    };
  }

  /** The price list, straight from the catalogue. */
  prices() {
    return {
      network: this.sources.terms.network.caip2,
      asset: this.sources.terms.network.usdc.address,
      payTo: this.sources.terms.payTo,
      tools: this.sources.catalog.map((tool) => ({
        name: tool.name,
        title: tool.title,
        price: money(usdcToAtomic(tool.price)),
        routes: tool.http.map((route) => ({ method: route.method, path: route.path })),
        built: Boolean(tool.handler ?? tool.http.some((route) => route.handler)),
        openWorld: tool.annotations.openWorldHint,
      })),
    };
  }

  /** What the gateway depends on. Error messages (which may name an RPC URL) only in the detailed view. */
  async health(access: DashboardAccess) {
    const [report, upstreams] = await Promise.all([this.sources.health(), this.sources.upstreams?.() ?? Promise.resolve([])]);
    const detailed = access.level === 'detailed';
    const embedded = report.facilitator === 'embedded';
    return {
      status: report.status,
      checkedAt: this.now().toISOString(),
      version: report.version,
      components: [
        {
          name: 'chain',
          kind: 'rpc',
          ok: report.chain.reachable,
          detail: report.chain.reachable ? `block ${report.chain.blockNumber ?? '?'}` : detailed ? (report.chain.error ?? 'unreachable') : 'unreachable',
        },
        {
          name: 'facilitator',
          kind: report.facilitator,
          // The embedded facilitator settles through the chain RPC; a remote one is judged by its last calls.
          ok: embedded ? report.chain.reachable : null,
          detail: embedded ? 'settles with its own key through the chain RPC' : 'remote x402 facilitator: see facilitator_unavailable in the outcomes',
        },
        {
          name: 'ledger',
          kind: 'store',
          ok: report.ledger.reachable,
          detail: report.ledger.reachable ? 'reachable' : detailed ? (report.ledger.error ?? 'unreachable') : 'unreachable',
        },
      ],
      upstreams,
    };
  }

  /** Detailed view only: payments with payer addresses, transaction hashes and errors. */
  async payments() {
    const { reports, terms } = this.sources;
    const [pending, failed, inFlight, recent, uncollected] = await Promise.all([
      reports.payments({ states: ['pending'], limit: LISTED_PAYMENTS }),
      reports.payments({ states: ['failed'], limit: LISTED_PAYMENTS }),
      reports.payments({ states: ['verified', 'running', 'settling'], limit: LISTED_PAYMENTS }),
      reports.payments({ states: ['settled'], limit: LISTED_PAYMENTS }),
      reports.payments({ states: ['received', 'claimed'], limit: LISTED_PAYMENTS }),
    ]);
    const explorer = terms.network.explorerUrl;
    const row = (p: ReportedPayment) => ({
      id: p.id,
      scheme: p.scheme,
      channelId: p.channelId,
      tool: p.tool,
      title: this.byName.get(p.tool)?.title ?? p.tool,
      amount: money(p.amount),
      state: p.state,
      payer: p.payer,
      payerUrl: explorerLink(explorer, 'address', p.payer),
      txHash: p.txHash,
      txUrl: explorerLink(explorer, 'tx', p.txHash),
      error: p.error,
      attempts: p.attempts,
      createdAt: p.createdAt.toISOString(),
      updatedAt: p.updatedAt.toISOString(),
      settlingAt: p.settlingAt?.toISOString() ?? null,
      settledAt: p.settledAt?.toISOString() ?? null,
      settlementMs: roundMs(p.settlementMs),
    });
    return {
      generatedAt: this.now().toISOString(),
      explorerUrl: explorer ?? null,
      pending: pending.map(row),
      failed: failed.map(row),
      inFlight: inFlight.map(row),
      recent: recent.map(row),
      /** Channel calls charged and not yet collected: received (unclaimed) or claimed (not settled). */
      uncollected: uncollected.map(row),
    };
  }
}

export function accessJson(access: DashboardAccess) {
  return access.level === 'detailed' ? { level: access.level, via: access.via } : { level: access.level, note: access.reason };
}

function compareBigint(a: bigint, b: bigint): number {
  return a === b ? 0 : a < b ? -1 : 1;
}

function sumStates(states: Record<PaymentState, AmountCount>, names: readonly PaymentState[]): AmountCount {
  return names.reduce((sum, name) => ({ amount: sum.amount + states[name].amount, count: sum.count + states[name].count }), { amount: 0n, count: 0 });
}

/** Significant digits enough for gas costs of fractions of a cent. */
const usdFigure = (value: number) => Number(value.toPrecision(6));

/**
 * What collecting the money cost: the gas of the payments' settlements (their share of each
 * transaction), in ETH and, with a price, USD; per settled call; and what is left of the revenue.
 */
function collectionJson(cost: { costWei: bigint; payments: number } | undefined, revenueAtomic: bigint, ethPrice: EthPrice | undefined) {
  const wei = cost?.costWei ?? 0n;
  const payments = cost?.payments ?? 0;
  const eth = Number(wei) / 1e18;
  const usd = ethPrice ? eth * ethPrice.usd : null;
  return {
    payments,
    eth: formatEther(wei),
    usd: usd === null ? null : usdFigure(usd),
    perPaymentEth: payments > 0 ? formatEther(wei / BigInt(payments)) : null,
    perPaymentUsd: usd === null || payments === 0 ? null : usdFigure(usd / payments),
    /** Revenue minus the cost, in USD (USDC counted at 1 USD). */
    netUsd: usd === null ? null : usdFigure(Number(revenueAtomic) / 1e6 - usd),
  };
}
