// What /metrics exposes, in Prometheus' text format through prom-client: calls by tool, face and
// outcome with their latency, revenue settled, settlement batches (size, latency, per-payment
// outcome), the settlement queue, payment channels (what they hold, what was collected and its gas),
// and each upstream provider's calls, errors and cache hits.
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { CallEvent } from '../payments/call-metrics.ts';
import type { ChannelSummary } from '../payments/channels/channel-claims.ts';
import type { CollectReport } from '../payments/schemes/batch-settlement/channel-collector.ts';
import type { RefundEvent } from '../payments/schemes/batch-settlement/payer-refund.ts';
import type { ProviderHealth } from '../upstream/provider-health.ts';

export interface MetricsSources {
  upstream(): readonly ProviderHealth[];
  /** Payments waiting for a settlement transaction, and payments in transactions awaiting receipts. */
  settlementQueue(): { queued: number; inFlight: number };
}

/** One settlement transaction's figures, as the engine reports them. */
export interface SettlementBatchEvent {
  size: number;
  settled: number;
  failed: number;
  /** From the batch leaving the queue to its outcome. */
  durationMs: number;
}

const LATENCY_BUCKETS_S = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];
const BATCH_SIZE_BUCKETS = [1, 2, 5, 10, 25, 50, 100, 200, 300];

export class PrometheusMetrics {
  readonly registry = new Registry();
  /** What payment channels hold now, when they are offered: read from the ledger at each scrape. */
  channels: (() => Promise<ChannelSummary>) | undefined;
  private readonly calls: Counter<'tool' | 'face' | 'outcome' | 'code'>;
  private readonly callSeconds: Histogram<'tool' | 'face' | 'outcome'>;
  private readonly revenue: Counter<'tool'>;
  private readonly batchSize: Histogram;
  private readonly batchSeconds: Histogram;
  private readonly settlements: Counter<'outcome'>;
  private readonly channelCollected: Counter<'step'>;
  private readonly channelGas: Counter;
  private readonly channelFees: Counter;
  private readonly channelFailures: Counter;
  private readonly channelRefunds: Counter;
  private readonly channelRefunded: Counter;
  private readonly channelVouchers: Counter;
  private readonly channelRefundGas: Counter;
  private readonly channelRefundFees: Counter;

  constructor(sources: MetricsSources) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'toolgate_' });
    this.calls = new Counter({
      name: 'toolgate_calls_total', help: 'Tool calls by tool, face (http, mcp), outcome (the gate\'s answer kind) and refusal or error code',
      labelNames: ['tool', 'face', 'outcome', 'code'], registers,
    });
    this.callSeconds = new Histogram({
      name: 'toolgate_call_duration_seconds', help: 'Time the gate took to answer a call, settlement included',
      labelNames: ['tool', 'face', 'outcome'], buckets: LATENCY_BUCKETS_S, registers,
    });
    this.revenue = new Counter({ name: 'toolgate_revenue_usdc_total', help: 'USDC of calls paid and settled, by tool', labelNames: ['tool'], registers });
    this.batchSize = new Histogram({ name: 'toolgate_settlement_batch_size', help: 'Payments per settlement transaction', buckets: BATCH_SIZE_BUCKETS, registers });
    this.batchSeconds = new Histogram({
      name: 'toolgate_settlement_duration_seconds', help: 'From a batch leaving the queue to its outcome (receipt at the confirmation depth)',
      buckets: LATENCY_BUCKETS_S, registers,
    });
    this.settlements = new Counter({ name: 'toolgate_settlements_total', help: 'Payments by settlement outcome (settled, failed, pending)', labelNames: ['outcome'], registers });
    new Gauge({
      name: 'toolgate_settlement_queue_depth', help: 'Payments waiting for a settlement transaction (queued) or for its receipt (in_flight)',
      labelNames: ['stage'], registers,
      collect() {
        const { queued, inFlight } = sources.settlementQueue();
        this.set({ stage: 'queued' }, queued);
        this.set({ stage: 'in_flight' }, inFlight);
      },
    });
    this.channelCollected = new Counter({
      name: 'toolgate_channel_collected_usdc_total', help: 'USDC of payment channels claimed (step=claimed, by Claimed events) and moved to payTo (step=settled, by Settled events)',
      labelNames: ['step'], registers,
    });
    this.channelGas = new Counter({ name: 'toolgate_channel_collection_gas_total', help: 'Gas of the channel claim and settle transactions this instance sent', registers });
    this.channelFees = new Counter({ name: 'toolgate_channel_collection_fee_eth_total', help: 'What those transactions cost, in ETH (gas x effective gas price)', registers });
    this.channelFailures = new Counter({ name: 'toolgate_channel_collection_failures_total', help: 'Collection passes with a claim or settle that failed or lacked its event', registers });
    this.channelRefunds = new Counter({
      name: 'toolgate_channel_refunds_total', help: 'Cooperative channel refunds by trigger (payer: asked by the payer; idle: TOOLGATE_CHANNEL_IDLE_REFUND_S) and outcome (refunded, by its Refunded event; failed)',
      labelNames: ['trigger', 'outcome'], registers,
    });
    this.channelVouchers = new Counter({
      name: 'toolgate_channel_vouchers_total',
      help: 'Voucher payments admitted to their tool, by who checked and reserved them (local: our check; sdk: @x402/evm\'s, for what ours leaves to it; TOOLGATE_CHANNEL_VOUCHER_CHECK)',
      labelNames: ['check'], registers,
    });
    this.channelRefunded = new Counter({ name: 'toolgate_channel_refunded_usdc_total', help: 'USDC given back to payers by cooperative refunds (by Refunded events)', labelNames: ['trigger'], registers });
    this.channelRefundGas = new Counter({ name: 'toolgate_channel_refund_gas_total', help: 'Gas of the refund transactions this instance sent', registers });
    this.channelRefundFees = new Counter({ name: 'toolgate_channel_refund_fee_eth_total', help: 'What those transactions cost, in ETH (gas x effective gas price)', registers });
    // A scrape reads the ledger once per gauge; a ledger that cannot answer leaves the gauges as they were.
    const channelsNow = async (): Promise<ChannelSummary | undefined> => {
      try {
        return await this.channels?.();
      } catch {
        return undefined;
      }
    };
    const channelGauge = (name: string, help: string, pick: (summary: ChannelSummary) => number) =>
      new Gauge({
        name, help, registers,
        async collect() {
          const summary = await channelsNow();
          if (summary) this.set(pick(summary));
        },
      });
    channelGauge('toolgate_channels_open', 'Payment channels with a record in the ledger', (s) => s.open);
    channelGauge('toolgate_channel_deposits_usdc', 'USDC deposited and still held in the channels', (s) => atomicUsdc(s.deposits));
    channelGauge('toolgate_channel_unclaimed_usdc', 'USDC charged by vouchers and not yet claimed on chain: revenue at risk until claimed', (s) => atomicUsdc(s.unclaimed));
    channelGauge('toolgate_channel_nearest_withdraw_deadline_seconds', 'Unix time of the nearest withdrawal deadline of a channel holding unclaimed charges (0: none)', (s) => s.nearestDeadline ?? 0);
    const perProvider = (name: string, help: string, pick: (p: ProviderHealth) => number) =>
      new Counter({
        name, help, labelNames: ['provider'], registers,
        collect() {
          // The upstream layer keeps the counts; a scrape copies them.
          this.reset();
          for (const provider of sources.upstream()) {
            const value = pick(provider);
            if (value > 0) this.inc({ provider: provider.id }, value);
          }
        },
      });
    perProvider('toolgate_upstream_requests_total', 'Requests to each upstream provider (cache hits excluded)', (p) => p.calls);
    perProvider('toolgate_upstream_errors_total', 'Upstream requests that failed, by provider', (p) => p.failures);
    perProvider('toolgate_upstream_cache_hits_total', 'Answers served from the upstream cache while fresh, by provider', (p) => p.cacheHits);
    perProvider('toolgate_upstream_stale_served_total', 'Stale cached answers served because the provider failed, by provider', (p) => p.staleServed);
  }

  observeCall(event: CallEvent): void {
    this.calls.inc({ tool: event.tool, face: event.face, outcome: event.kind, code: event.code ?? '' });
    this.callSeconds.observe({ tool: event.tool, face: event.face, outcome: event.kind }, event.durationMs / 1000);
    if (event.kind === 'paid' && event.code !== 'replayed' && event.price !== undefined) this.revenue.inc({ tool: event.tool }, Number(event.price));
  }

  observeBatch(batch: SettlementBatchEvent): void {
    this.batchSize.observe(batch.size);
    this.batchSeconds.observe(batch.durationMs / 1000);
    const pending = batch.size - batch.settled - batch.failed;
    if (batch.settled > 0) this.settlements.inc({ outcome: 'settled' }, batch.settled);
    if (batch.failed > 0) this.settlements.inc({ outcome: 'failed' }, batch.failed);
    if (pending > 0) this.settlements.inc({ outcome: 'pending' }, pending);
  }

  observeChannelCollection(report: CollectReport): void {
    if (report.claimed > 0n) this.channelCollected.inc({ step: 'claimed' }, atomicUsdc(report.claimed));
    if (report.settled > 0n) this.channelCollected.inc({ step: 'settled' }, atomicUsdc(report.settled));
    if (report.gas > 0n) this.channelGas.inc(Number(report.gas));
    if (report.feeWei > 0n) this.channelFees.inc(Number(report.feeWei) / 1e18);
    if (report.failures.length > 0) this.channelFailures.inc();
  }

  observeChannelRefund({ trigger, receipt }: RefundEvent): void {
    this.channelRefunds.inc({ trigger, outcome: 'refunded' });
    this.channelRefunded.inc({ trigger }, atomicUsdc(receipt.refunded));
    if (receipt.gas > 0n) this.channelRefundGas.inc(Number(receipt.gas));
    if (receipt.feeWei > 0n) this.channelRefundFees.inc(Number(receipt.feeWei) / 1e18);
  }

  observeChannelVoucher(check: 'local' | 'sdk'): void {
    this.channelVouchers.inc({ check });
  }

  observeChannelRefundFailure(trigger: RefundEvent['trigger']): void {
    this.channelRefunds.inc({ trigger, outcome: 'failed' });
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

/** Atomic USDC (6 decimals) as a number of USDC. */
const atomicUsdc = (atomic: bigint) => Number(atomic) / 1e6;
