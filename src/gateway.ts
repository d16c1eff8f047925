// Assembles a running gateway from its configuration: (local chain) -> ledger -> facilitator ->
// gate -> HTTP app. Used by main.ts, the tests and the benchmarks alike.
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { buildApp } from './app.ts';
import { catalog as defaultCatalog } from './catalog/index.ts';
import type { Tool } from './catalog/tool.ts';
import type { DevChain } from './chain/devchain.ts';
import { attachDevChain, fundDevAccounts, startDevChain, writeDevChainFile } from './chain/devchain.ts';
import { MULTICALL3_ADDRESS } from './chain/multicall3.ts';
import { PayerStanding } from './payments/payer-standing.ts';
import { UsdcChainReader } from './chain/usdc-reader.ts';
import type { Config } from './config.ts';
import { originPolicy } from './faces/mcp/origin-guard.ts';
import type { SseSessions } from './faces/mcp/mcp-routes.ts';
import { checkHealth } from './health.ts';
import type { Logger } from './log.ts';
import { EmbeddedFacilitator } from './payments/facilitator/embedded-facilitator.ts';
import type { Facilitator } from './payments/facilitator/facilitator.ts';
import { RemoteFacilitator } from './payments/facilitator/remote-facilitator.ts';
import { CallMetrics } from './payments/call-metrics.ts';
import { PrometheusMetrics } from './observability/prometheus-metrics.ts';
import { ethPriceSource } from './observability/eth-price.ts';
import { PaymentGate } from './payments/gate.ts';
import { AdvisoryClaimSenderLock, LocalClaimSenderLock } from './payments/channels/claim-sender-lock.ts';
import { SqlChannelClaims } from './payments/channels/channel-claims.ts';
import { SqlChannelStorage } from './payments/channels/sql-channel-storage.ts';
import { ChannelPayments } from './payments/ledger/channel-payments.ts';
import { ExactScheme } from './payments/schemes/exact/exact-scheme.ts';
import { openChannels } from './payments/schemes/batch-settlement/open-channels.ts';
import type { Channels } from './payments/schemes/batch-settlement/open-channels.ts';
import { refundCollection } from './payments/schemes/batch-settlement/payer-refund.ts';
import type { RefundEvent } from './payments/schemes/batch-settlement/payer-refund.ts';
import type { PaymentScheme } from './payments/schemes/payment-scheme.ts';
import type { PaymentLedger } from './payments/ledger/payment-ledger.ts';
import { openPgliteClient } from './payments/ledger/pglite-client.ts';
import { openPostgresClient } from './payments/ledger/postgres-client.ts';
import type { SqlClient } from './payments/ledger/sql-client.ts';
import { SqlPaymentLedger } from './payments/ledger/sql-payment-ledger.ts';
import { vacuumPaymentsIfDue } from './payments/ledger/embedded-vacuum.ts';
import { localNetwork, publicNetwork } from './payments/networks.ts';
import type { PaymentNetwork } from './payments/networks.ts';
import { reconcilePayments } from './payments/reconciler.ts';
import type { ReconcileScope } from './payments/reconciler.ts';
import { BatchedTransferSettlement } from './payments/settlement/batched-transfers.ts';
import { FacilitatorSettlement } from './payments/settlement/facilitator-settlement.ts';
import type { SettlingFacilitator } from './payments/settlement/facilitator-settlement.ts';
import type { Settlement } from './payments/settlement/settlement.ts';
import { AdvisorySettlerKeyLock } from './payments/settlement/settler-key-lock.ts';
import type { SettlerKeyLock } from './payments/settlement/settler-key-lock.ts';
import type { PaymentTerms } from './payments/requirements.ts';
import { packageVersion } from './version.ts';
import type { HostResolver } from './upstream/http/http-types.ts';
import type { ProviderDefinition } from './upstream/provider.ts';
import { createToolServices } from './upstream/tool-services.ts';
import type { Upstream } from './upstream/upstream.ts';
import type { WebPages } from './upstream/web-pages.ts';

export interface GatewayOverrides {
  catalog?: readonly Tool[];
  /** A local chain already running (tests share one across gateways). */
  devChain?: DevChain;
  facilitator?: Facilitator;
  /** Resolves caller-supplied host names (tests map names to loopback addresses). */
  resolveHost?: HostResolver;
  /** Other declarations of the providers (tests lift the public providers' rate limits). */
  providers?: readonly ProviderDefinition[];
}

export interface Gateway {
  app: FastifyInstance;
  /** Open legacy-SSE MCP sessions (for leak checks). */
  sseSessions: SseSessions;
  config: Config;
  network: PaymentNetwork;
  terms: PaymentTerms;
  gate: PaymentGate;
  metrics: CallMetrics;
  ledger: PaymentLedger;
  facilitator: Facilitator;
  settlement: Settlement;
  chain: UsdcChainReader;
  /** Payment channels (x402 batch-settlement), when offered. */
  channels: Channels | undefined;
  upstream: Upstream;
  web: WebPages;
  rpcUrl: string;
  /** Present in local mode. */
  devChain: DevChain | undefined;
  /** Where devchain.json was written, in local mode. */
  devChainFile: string | undefined;
  close(): Promise<void>;
}

const RECONCILE_EVERY_MS = 30_000;
/** How long a call may stay in flight before a periodic pass treats it as abandoned. */
const ABANDONED_AFTER_MS = 10 * 60_000;
/** Instances on a shared store say they are alive this often; unseen for the second, they are gone. */
const HEARTBEAT_EVERY_MS = 5_000;
const INSTANCE_STALE_AFTER_MS = 30_000;

/**
 * Who verifies and who settles: an overriding facilitator or a remote one does both (one settle per
 * payment); otherwise the embedded facilitator verifies and the batch engine settles.
 */
const optionalEthPrice = <T>(source: T | undefined) => (source ? { ethPrice: source } : {});

/** The embedded store (one instance) or PostgreSQL (shared by several). */
async function openLedgerStore(ledger: Config['ledger']): Promise<{ client: SqlClient; shared: boolean }> {
  if (ledger !== 'memory' && 'url' in ledger) return { client: await openPostgresClient({ url: ledger.url }), shared: true };
  return { client: await openPgliteClient(ledger === 'memory' ? undefined : ledger.dir), shared: false };
}

function paymentServices(
  config: Config,
  overrides: GatewayOverrides,
  ctx: { network: PaymentNetwork; rpcUrl: string; settlerKeys: readonly Hex[]; ledger: PaymentLedger; log: Logger; standing: PayerStanding; keyLock?: SettlerKeyLock },
): { facilitator: Facilitator; settlement: Settlement } {
  const remote = overrides.facilitator ?? (config.facilitatorUrl ? new RemoteFacilitator(config.facilitatorUrl, config.facilitatorTimeoutMs) : undefined);
  if (remote) {
    if (!('settle' in remote)) throw new Error('an overriding facilitator must also settle');
    return { facilitator: remote, settlement: new FacilitatorSettlement(remote as Facilitator & SettlingFacilitator, ctx.ledger) };
  }
  if (ctx.settlerKeys.length === 0) throw new Error('no settler key: set TOOLGATE_SETTLER_PRIVATE_KEY or TOOLGATE_FACILITATOR_URL');
  const signers = ctx.settlerKeys.map((key) => privateKeyToAccount(key).address);
  return {
    facilitator: new EmbeddedFacilitator({ network: ctx.network, rpcUrl: ctx.rpcUrl, signers, multicall3: MULTICALL3_ADDRESS }),
    settlement: new BatchedTransferSettlement({
      network: ctx.network, rpcUrl: ctx.rpcUrl, settlerKeys: ctx.settlerKeys, multicall3: MULTICALL3_ADDRESS,
      ledger: ctx.ledger, log: ctx.log, receiptTimeoutMs: config.receiptTimeoutMs, pollingIntervalMs: config.pollingIntervalMs,
      chainFailures: { budgetLeft: () => ctx.standing.chainFailureBudgetLeft(), failedOnChain: (payer) => ctx.standing.failedOnChain(payer) },
      ...(ctx.keyLock ? { keyLock: ctx.keyLock } : {}),
      ...config.settlement,
    }),
  };
}

export async function createGateway(config: Config, overrides: GatewayOverrides = {}): Promise<Gateway> {
  const cleanups: (() => Promise<void>)[] = [];
  const closeAll = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    let devChain = overrides.devChain;
    let devChainFile: string | undefined;
    let network: PaymentNetwork;
    let rpcUrl: string;
    let payTo: Address;
    let settlerKeys = config.settlerKeys;
    if (config.network === 'local') {
      if (!devChain && config.localChainFile) devChain = await attachDevChain(config.localChainFile);
      if (!devChain) {
        const started = await startDevChain({ tokenName: config.localTokenName });
        cleanups.push(() => started.stop());
        devChain = started;
      }
      devChainFile = await writeDevChainFile(config.dataDir, devChain);
      network = localNetwork(devChain.chainId, devChain.usdc, devChain.tokenName);
      rpcUrl = devChain.rpcUrl;
      payTo = (config.payTo ?? devChain.payTo) as Address;
      if (settlerKeys.length === 0) settlerKeys = [devChain.settlerKey];
      else await fundDevAccounts(devChain.rpcUrl, settlerKeys.map((key) => privateKeyToAccount(key).address));
    } else {
      network = publicNetwork(config.network);
      const configured = config.rpcUrl ?? network.defaultRpcUrl;
      if (!configured) throw new Error(`no RPC URL for ${config.network}: set TOOLGATE_RPC_URL`);
      rpcUrl = configured;
      payTo = config.payTo as Address;
    }

    const store = await openLedgerStore(config.ledger);
    const ledger = await SqlPaymentLedger.open(store.client);
    cleanups.push(() => ledger.close());

    const logger = pino({ level: config.logLevel });
    const log: Logger = logger;
    const standing = new PayerStanding(config.payerStanding);
    const { facilitator, settlement } = paymentServices(config, overrides, {
      network, rpcUrl, settlerKeys, ledger, log, standing, ...(store.shared ? { keyLock: new AdvisorySettlerKeyLock(store.client) } : {}),
    });
    cleanups.push(() => settlement.drain(config.settlement.drainTimeoutMs));

    const chain = new UsdcChainReader(network, rpcUrl);
    const terms: PaymentTerms = { network, payTo, maxTimeoutSeconds: config.maxTimeoutSeconds };
    const catalog = overrides.catalog ?? defaultCatalog;
    const metrics = new CallMetrics();
    const prometheus = new PrometheusMetrics({
      upstream: () => upstream.health(),
      settlementQueue: () => (settlement instanceof BatchedTransferSettlement ? settlement.depth() : { queued: 0, inFlight: 0 }),
    });
    metrics.onRecord = (event) => prometheus.observeCall(event);
    if (settlement instanceof BatchedTransferSettlement) settlement.onBatch = (report) => prometheus.observeBatch(report);
    const { upstream, web, close: closeServices } = createToolServices(config, log, {
      ...(overrides.resolveHost ? { resolveHost: overrides.resolveHost } : {}),
      ...(overrides.providers ? { providers: overrides.providers } : {}),
    });
    cleanups.push(closeServices);
    // A channel call's ledger row is written by the channel update that charges it, in its transaction.
    const channelPayments = new ChannelPayments(store.client);
    const channelStorage = config.schemes.includes('batch-settlement')
      ? await SqlChannelStorage.open(store.client, {
        network: network.caip2, instance: config.instance, observer: (tx, before, after) => channelPayments.observe(tx, before, after),
        chargeObserver: (tx, charged) => channelPayments.observeCharges(tx, charged),
      })
      : undefined;
    const channelClaims = new SqlChannelClaims(store.client, network.caip2);
    const channels = channelStorage
      ? await openChannels({
        config, network, rpcUrl, terms, prices: catalog.map((tool) => tool.price), log,
        // On the ledger's own store: a voucher is written before its result leaves, every instance on
        // one database sees one record per channel, and one of them at a time sends claims.
        storage: channelStorage,
        vouchers: { store: channelStorage, exclusive: !store.shared },
        claims: channelClaims,
        claimLock: store.shared ? new AdvisoryClaimSenderLock(store.client, network.caip2) : new LocalClaimSenderLock(),
        ...(store.shared ? { keyLock: new AdvisorySettlerKeyLock(store.client) } : {}),
        ledger: { ledger, payments: channelPayments, instance: config.instance },
      })
      : undefined;
    if (channels) {
      // A refund our key sent: on /metrics, and in the ledger's cost of collecting (the dashboard's).
      const refunded = (event: RefundEvent) => {
        prometheus.observeChannelRefund(event);
        channelPayments.recordCollection(network.caip2, [refundCollection(event)])
          .catch((error: unknown) => log.warn({ err: error, tx: event.transaction }, 'a channel refund\'s cost could not be recorded'));
      };
      channels.collector.onCollect = (report) => prometheus.observeChannelCollection(report);
      channels.scheme.onRefund = refunded;
      channels.scheme.onRefundFailed = () => prometheus.observeChannelRefundFailure('payer');
      channels.scheme.onVoucherHeld = (check) => prometheus.observeChannelVoucher(check);
      prometheus.channels = () => channelClaims.summary();
      channels.collector.start();
      channels.withdrawals.start();
      if (channels.idleRefunds) {
        channels.idleRefunds.onRefund = refunded;
        channels.idleRefunds.onFailure = () => prometheus.observeChannelRefundFailure('idle');
        channels.idleRefunds.start();
      }
      cleanups.push(async () => {
        await channels.withdrawals.stop();
        await channels.idleRefunds?.stop();
        await channels.collector.stop();
      });
    }
    const offered = config.schemes.flatMap((name): PaymentScheme[] => {
      if (name === 'exact') return [new ExactScheme({ facilitator, settlement, ledger, terms, log, now: () => new Date(), instance: config.instance, standing })];
      return channels ? [channels.scheme] : [];
    });
    if (offered.length === 0) throw new Error(`no payment scheme can be offered: TOOLGATE_SCHEMES=${config.schemes.join(',')} and payment channels are not available (see the log)`);
    const gate = new PaymentGate({ schemes: offered, log, metrics, services: { upstream, web } });
    const { app, sseSessions } = buildApp({
      catalog,
      gate,
      publicBaseUrl: config.publicBaseUrl,
      maxBodyBytes: config.maxBodyBytes,
      trustedProxies: config.trustedProxies,
      logger,
      mcpOriginPolicy: originPolicy(config.publicBaseUrl, config.allowedOrigins, config.allowedHosts),
      httpTimeouts: config.httpTimeouts,
      sse: config.sse,
      ledger,
      metrics,
      terms,
      facilitatorKind: facilitator.kind,
      dashboardToken: config.dashboardToken,
      prometheus,
      upstreams: async () => upstream.health().filter((p) => p.configured).map((p) => ({
        name: p.name,
        // Judged by its last answers since start: no calls yet is "not probed".
        ok: p.calls === 0 ? null : !p.lastFailureAt || (p.lastSuccessAt !== undefined && p.lastSuccessAt > p.lastFailureAt),
        detail: `${p.calls} requests, ${p.failures} failed, ${p.cacheHits} cache hits since start`,
      })),
      ...(channels ? { channels: () => channelClaims.summary() } : {}),
      ...optionalEthPrice(ethPriceSource({ configuredUsd: config.ethPriceUsd, network: network.name, upstream })),
      health: () =>
        checkHealth({
          version: packageVersion, network, payTo, facilitator: facilitator.kind, ledger,
          blockNumber: () => chain.blockNumber(),
          providers: () => upstream.health(),
          onProblem: (component, error) => log.warn({ err: error, component }, 'health probe failed'),
        }),
    });
    cleanups.push(() => app.close());

    // What this instance had in flight before its start was cut off. On a shared store, other
    // instances' calls are left to them while they are seen alive, and taken over when they are not.
    const { instance } = config;
    const scope = async (atStart: boolean): Promise<ReconcileScope> => ({
      instance, atStart, graceMs: ABANDONED_AFTER_MS,
      ...(store.shared ? { live: await ledger.liveInstances(new Date(Date.now() - INSTANCE_STALE_AFTER_MS)) } : {}),
    });
    // Heartbeats are for other instances to read: an embedded store has none.
    if (store.shared) await ledger.heartbeat(instance, true).catch((error: unknown) => log.warn({ err: error }, 'instance heartbeat failed'));
    await reconcilePayments(ledger, chain, log, await scope(true)).catch((error: unknown) => log.warn({ err: error }, 'start-up reconciliation failed'));
    // Channels a crashed run left reserved for a call whose result never left: free them now, not after maxTimeoutSeconds.
    if (channelStorage) {
      const orphans = await scope(true);
      const released = await channelStorage.releaseOrphanedReservations(orphans);
      if (released.length > 0) log.warn({ channels: released }, 'released channel reservations left by a crashed run (nothing was charged for them)');
      await channelPayments.releaseOrphaned(orphans).catch((error: unknown) => log.warn({ err: error }, 'channel calls left running could not be released'));
    }
    const heartbeat = store.shared ? setInterval(() => void ledger.heartbeat(instance).catch(() => undefined), HEARTBEAT_EVERY_MS) : undefined;
    heartbeat?.unref();
    const timer = setInterval(() => {
      void scope(false).then((s) => reconcilePayments(ledger, chain, log, s)).catch(() => undefined);
      void ledger.forgetResults(new Date(Date.now() - config.retryResultsMs)).catch(() => undefined);
      if (channelStorage) void channelPayments.releaseAbandoned(new Date(Date.now() - ABANDONED_AFTER_MS)).catch(() => undefined);
      void ledger.pruneUnpaid(new Date(Date.now() - config.unpaidRetentionMs), BigInt(Math.floor(Date.now() / 1000))).catch(() => undefined);
      // The embedded store has no autovacuum (embedded-vacuum.ts); PostgreSQL vacuums by itself.
      if (!store.shared) {
        const started = performance.now();
        void vacuumPaymentsIfDue(store.client).then((dead) => {
          if (dead !== undefined) log.info({ deadVersions: dead, ms: Math.round(performance.now() - started) }, 'vacuumed the embedded ledger\'s payments table');
        }).catch((error: unknown) => log.warn({ err: error }, 'vacuuming the embedded ledger failed'));
      }
    }, RECONCILE_EVERY_MS);
    timer.unref();
    cleanups.push(async () => {
      clearInterval(timer);
      clearInterval(heartbeat);
    });

    return {
      app, sseSessions, config, network, terms, gate, metrics, ledger, facilitator, settlement, chain, channels, upstream, web, rpcUrl, devChain, devChainFile,
      close: closeAll,
    };
  } catch (error) {
    await closeAll();
    throw error;
  }
}
