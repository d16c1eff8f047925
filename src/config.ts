// Every setting, typed and validated from the environment. Each variable is documented in the
// README's configuration table; a wrong value stops the start with a message naming it.
import { hostname } from 'node:os';
import { resolve } from 'node:path';
import { z } from 'zod';
import type { Hex } from 'viem';
import type { NetworkName } from './payments/networks.ts';
import { networkNames } from './payments/networks.ts';
import { usdcToAtomic } from './payments/price.ts';
import type { SettlementMode } from './payments/settlement/settlement.ts';
import { settlementModes } from './payments/settlement/settlement.ts';
import { schemeNames } from './payments/schemes/scheme-names.ts';
import type { SchemeName } from './payments/schemes/scheme-names.ts';
import { EmbeddingsConfigError, readEmbeddingsConfig } from './catalog/ai/embedding-config.ts';
import { CryptoSettingsError, readCryptoSettings } from './catalog/crypto/crypto-settings.ts';
import { providers } from './upstream/providers/index.ts';
import type { UpstreamConfig } from './upstream/upstream-config.ts';
import { readUpstreamConfig } from './upstream/upstream-config.ts';

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  network: NetworkName;
  /** Public address callers reach us at; resource URLs and documents use it. */
  publicBaseUrl: string;
  payTo: Hex | undefined;
  rpcUrl: string | undefined;
  /** Keys that pay the gas of settlements, each with its own nonce sequence (parallel batches). */
  settlerKeys: Hex[];
  settlement: SettlementConfig;
  /** The x402 schemes offered, in the order every 402 lists them. */
  schemes: SchemeName[];
  channels: ChannelConfig;
  facilitatorUrl: string | undefined;
  facilitatorTimeoutMs: number;
  maxBodyBytes: number;
  maxTimeoutSeconds: number;
  receiptTimeoutMs: number;
  pollingIntervalMs: number;
  localTokenName: string;
  /** Local mode: the devchain.json of a chain already running, used instead of starting one. */
  localChainFile: string | undefined;
  /**
   * `memory` keeps the ledger in memory (lost on exit); `dir`: the embedded store's directory;
   * `url`: a PostgreSQL server, shared by several instances.
   */
  ledger: 'memory' | { dir: string } | { url: string };
  /** This instance's name in a shared ledger; a restart under the same name takes back its own leftovers. */
  instance: string;
  /** What the local tools load at start: `light` (small things) or `all` (also their datasets, ~400 MB). */
  preload: 'light' | 'all';
  /** ETH in USD for the dashboard's gas costs; unset: Chainlink on Base networks, none on local. */
  ethPriceUsd: number | undefined;
  /** How long the result of a payment carrying a payment-identifier is kept for its retries. */
  retryResultsMs: number;
  /** How long rows of unpaid calls (released, failed without gas) are kept before they are pruned. */
  unpaidRetentionMs: number;
  /** Payers the chain refused (docs/payments.md, "Payers the chain refused"). */
  payerStanding: { probationMs: number; cooldownMs: number; chainFailuresPerHour: number };
  logLevel: 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
  /** Proxies whose X-Forwarded-For is believed (addresses or CIDRs). */
  trustedProxies: string[];
  /** Extra origins and Host names the MCP endpoints accept besides localhost and the public base URL. */
  allowedOrigins: string[];
  allowedHosts: string[];
  /** Bearer token that unlocks payer addresses and transaction detail on the dashboard. */
  dashboardToken: string | undefined;
  /** How long a client may take to send a request's headers, and the whole request (not its answer). */
  httpTimeouts: { headersMs: number; requestMs: number };
  /** Legacy SSE streams: at once on this instance, at once per client, and the idle time that closes one. */
  sse: { maxSessions: number; maxPerClient: number; idleTimeoutMs: number };
  /** Providers' base URLs and keys, the User-Agent contact, the SSRF guard and page limits. */
  upstream: UpstreamConfig;
}

export interface SettlementConfig {
  mode: SettlementMode;
  /** How long a settlement may wait for company while every settler key is busy. */
  batchWindowMs: number;
  maxBatchSize: number;
  /** Blocks that must hold a settlement before it counts (1: the receipt itself). */
  confirmations: number;
  /** A settlement transaction with no receipt after this long is sent again at a higher fee. */
  replaceAfterMs: number;
  /** At shutdown, how long queued and in-flight settlements are given to finish. */
  drainTimeoutMs: number;
}

/** Payment channels (x402 `batch-settlement`): docs/payment-channels.md, "In the gate". */
export interface ChannelConfig {
  /** Sends deposits, claims, settles and refunds (its own nonces); local default: a dev account. */
  settlerKey: Hex | undefined;
  /** Signs claims and cooperative refunds; local default: a dev account. */
  receiverAuthorizerKey: Hex | undefined;
  /** The deposit asked for (`extra.minDeposit`), as a number of calls at the tool's price. */
  minDepositCalls: number;
  /** How long a payer's on-chain withdrawal waits: our time to claim what it owes. */
  withdrawDelaySeconds: number;
  claimIntervalMs: number;
  /** A regular claim pass claims a channel owing at least this (atomic USDC), or idle `claimIdleMs`, or withdrawing. */
  claimMinUnclaimed: bigint;
  claimIdleMs: number;
  /** How often the chain is read for payers withdrawing from our channels. */
  withdrawPollMs: number;
  /** A channel with no request for this long is refunded to its payer (its unspent part); 0: never. */
  idleRefundSeconds: number;
  /** TOOLGATE_CHANNEL_VOUCHER_CHECK: who checks and charges a plain voucher (local, the default, or the SDK). */
  voucherCheck: 'local' | 'sdk';
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const address = z.string().regex(/^0x[0-9a-fA-F]{40}$/, { message: 'expected a 0x-prefixed 20-byte hex address' });
const privateKey = z.string().regex(/^0x[0-9a-fA-F]{64}$/, { message: 'expected a 0x-prefixed 32-byte hex private key' });
/** One key, or several separated by commas (one nonce sequence each). */
const privateKeys = z
  .string()
  .transform((v) => v.split(',').map((k) => k.trim()).filter((k) => k !== ''))
  .pipe(z.array(privateKey).min(1, { message: 'expected at least one key' }))
  .refine((keys) => new Set(keys.map((k) => k.toLowerCase())).size === keys.length, { message: 'the same key is listed twice' });
const url = z.string().refine((v) => /^https?:\/\/[^/]/.test(v) && URL.canParse(v), { message: 'expected an http(s) URL' });
const integer = (min: number, max: number) =>
  z.string().regex(/^\d+$/, { message: 'expected a whole number' }).transform(Number).pipe(z.number().min(min).max(max));
/** A USDC amount as a decimal string (at most 6 decimals), to atomic units. */
const usdc = (max: string) =>
  z.string().regex(/^(0|[1-9]\d*)(\.\d{1,6})?$/, { message: 'expected a USDC amount such as 0.05 (at most 6 decimals)' })
    .transform(usdcToAtomic).refine((v) => v <= usdcToAtomic(max), { message: `expected at most ${max} USDC` });

const secretVariables = new Set(['TOOLGATE_SETTLER_PRIVATE_KEY', 'TOOLGATE_CHANNEL_SETTLER_PRIVATE_KEY', 'TOOLGATE_RECEIVER_AUTHORIZER_PRIVATE_KEY', 'TOOLGATE_DASHBOARD_TOKEN', 'TOOLGATE_DATABASE_URL']);

const envSchema = z.object({
  PORT: integer(0, 65_535).optional(),
  HOST: z.string().min(1).optional(),
  TOOLGATE_DATA_DIR: z.string().min(1).optional(),
  TOOLGATE_NETWORK: z.enum(networkNames as [NetworkName, ...NetworkName[]], { message: `expected one of ${networkNames.join(', ')}` }).optional(),
  TOOLGATE_PUBLIC_BASE_URL: url.optional(),
  TOOLGATE_PAY_TO: address.optional(),
  TOOLGATE_RPC_URL: url.optional(),
  TOOLGATE_SETTLER_PRIVATE_KEY: privateKeys.optional(),
  TOOLGATE_SETTLEMENT_MODE: z.enum(settlementModes as [SettlementMode, ...SettlementMode[]], { message: `expected one of ${settlementModes.join(', ')}` }).optional(),
  TOOLGATE_SETTLEMENT_BATCH_WINDOW_MS: integer(0, 60_000).optional(),
  TOOLGATE_SETTLEMENT_MAX_BATCH: integer(1, 300).optional(),
  TOOLGATE_SETTLEMENT_CONFIRMATIONS: integer(1, 64).optional(),
  TOOLGATE_SETTLEMENT_REPLACE_AFTER_MS: integer(100, 600_000).optional(),
  TOOLGATE_SETTLEMENT_DRAIN_TIMEOUT_MS: integer(0, 600_000).optional(),
  TOOLGATE_SCHEMES: z.string().optional(),
  TOOLGATE_CHANNEL_SETTLER_PRIVATE_KEY: privateKey.optional(),
  TOOLGATE_RECEIVER_AUTHORIZER_PRIVATE_KEY: privateKey.optional(),
  TOOLGATE_CHANNEL_MIN_DEPOSIT_CALLS: integer(1, 1_000_000).optional(),
  // The contract's bounds: 15 minutes to 30 days.
  TOOLGATE_CHANNEL_WITHDRAW_DELAY_S: integer(900, 30 * 86_400).optional(),
  TOOLGATE_CHANNEL_CLAIM_INTERVAL_S: integer(1, 86_400).optional(),
  TOOLGATE_CHANNEL_CLAIM_MIN_USDC: usdc('1000').optional(),
  TOOLGATE_CHANNEL_CLAIM_IDLE_S: integer(0, 30 * 86_400).optional(),
  TOOLGATE_CHANNEL_WITHDRAW_POLL_S: integer(1, 3_600).optional(),
  TOOLGATE_CHANNEL_IDLE_REFUND_S: integer(0, 365 * 86_400).optional(),
  TOOLGATE_CHANNEL_VOUCHER_CHECK: z.enum(['local', 'sdk'], { message: 'expected local or sdk' }).optional(),
  // Read where recoveries run (payments/facilitator/secp256k1-recovery.ts); checked here so a typo stops the start.
  TOOLGATE_RECOVERY_THREAD: z.enum(['auto', 'off'], { message: 'expected auto or off' }).optional(),
  TOOLGATE_RETRY_RESULTS_HOURS: integer(1, 720).optional(),
  TOOLGATE_UNPAID_RETENTION_HOURS: integer(1, 8_760).optional(),
  TOOLGATE_PAYER_PROBATION_MINUTES: integer(1, 10_080).optional(),
  TOOLGATE_PAYER_COOLDOWN_MINUTES: integer(1, 10_080).optional(),
  TOOLGATE_CHAIN_FAILURES_PER_HOUR: integer(0, 10_000).optional(),
  TOOLGATE_PRELOAD: z.enum(['light', 'all'], { message: 'expected light or all' }).optional(),
  TOOLGATE_ETH_PRICE_USD: z.coerce.number({ message: 'expected a number of USD' }).positive({ message: 'expected a positive number of USD' }).max(1_000_000).optional(),
  TOOLGATE_INSTANCE_ID: z.string().regex(/^[\w.:@-]{1,100}$/, 'expected 1-100 letters, digits or . : @ - _').optional(),
  TOOLGATE_FACILITATOR_URL: url.optional(),
  TOOLGATE_FACILITATOR_TIMEOUT_MS: integer(100, 600_000).optional(),
  TOOLGATE_MAX_BODY_BYTES: integer(1_024, 100 * 1024 * 1024).optional(),
  TOOLGATE_MAX_TIMEOUT_SECONDS: integer(30, 86_400).optional(),
  TOOLGATE_RECEIPT_TIMEOUT_MS: integer(100, 600_000).optional(),
  TOOLGATE_POLLING_INTERVAL_MS: integer(10, 60_000).optional(),
  TOOLGATE_LOCAL_TOKEN_NAME: z.string().min(1).max(100).optional(),
  TOOLGATE_LOCAL_CHAIN_FILE: z.string().min(1).optional(),
  TOOLGATE_LEDGER: z.string().min(1).optional(),
  TOOLGATE_DATABASE_URL: z
    .string()
    .refine((v) => /^postgres(ql)?:\/\/[^\s]+$/.test(v) && URL.canParse(v), { message: 'expected a postgres://user:password@host:port/database URL' })
    .optional(),
  TOOLGATE_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional(),
  TOOLGATE_TRUSTED_PROXIES: z.string().optional(),
  TOOLGATE_ALLOWED_ORIGINS: z.string().optional(),
  TOOLGATE_ALLOWED_HOSTS: z.string().optional(),
  TOOLGATE_HEADERS_TIMEOUT_MS: integer(100, 600_000).optional(),
  TOOLGATE_REQUEST_TIMEOUT_MS: integer(100, 3_600_000).optional(),
  TOOLGATE_MAX_SSE_SESSIONS: integer(1, 100_000).optional(),
  TOOLGATE_MAX_SSE_SESSIONS_PER_CLIENT: integer(1, 100_000).optional(),
  TOOLGATE_SSE_IDLE_TIMEOUT_S: integer(1, 86_400).optional(),
  TOOLGATE_DASHBOARD_TOKEN: z.string().min(16, { message: 'expected at least 16 characters' }).optional(),
});

const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // Empty variables count as unset, as people expect from `VAR= npm start`.
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => {
      const variable = String(i.path[0]);
      const which = typeof i.path[1] === 'number' && String(present[variable]).includes(',') ? ` (entry ${i.path[1] + 1} of the list)` : '';
      // A malformed secret is still a secret: never echo it.
      const given = secretVariables.has(variable) ? 'the value given is not shown' : `got "${String(present[variable])}"`;
      return `${variable}: ${i.message}${which} (${given})`;
    }));
  }
  const e = parsed.data;
  const network = e.TOOLGATE_NETWORK ?? 'local';
  const local = network === 'local';
  const port = e.PORT ?? 4021;
  const dataDir = resolve(e.TOOLGATE_DATA_DIR ?? '.toolgate');

  const problems: string[] = [];
  if (!local) {
    if (!e.TOOLGATE_PAY_TO) problems.push(`TOOLGATE_PAY_TO is required on ${network}: the address that receives the USDC`);
    if (!e.TOOLGATE_FACILITATOR_URL && !e.TOOLGATE_SETTLER_PRIVATE_KEY) {
      problems.push(
        `on ${network} set either TOOLGATE_FACILITATOR_URL (a remote x402 facilitator) or TOOLGATE_SETTLER_PRIVATE_KEY (a key holding ETH for gas, used by the embedded facilitator)`,
      );
    }
  }
  if (e.TOOLGATE_DATABASE_URL && e.TOOLGATE_LEDGER) {
    problems.push('set TOOLGATE_DATABASE_URL (PostgreSQL) or TOOLGATE_LEDGER (the embedded store), not both');
  }
  const httpTimeouts = { headersMs: e.TOOLGATE_HEADERS_TIMEOUT_MS ?? 10_000, requestMs: e.TOOLGATE_REQUEST_TIMEOUT_MS ?? 30_000 };
  if (httpTimeouts.headersMs > httpTimeouts.requestMs) {
    problems.push(`TOOLGATE_HEADERS_TIMEOUT_MS (${httpTimeouts.headersMs}) must not exceed TOOLGATE_REQUEST_TIMEOUT_MS (${httpTimeouts.requestMs}): the headers are part of the request`);
  }
  if (e.TOOLGATE_FACILITATOR_URL && e.TOOLGATE_SETTLEMENT_MODE === 'submitted') {
    problems.push('TOOLGATE_SETTLEMENT_MODE=submitted needs the embedded settlement engine: a remote facilitator answers /settle after the receipt; unset TOOLGATE_FACILITATOR_URL or use confirmed');
  }
  // The embeddings tool reads its settings at call time (tests swap them); a bad value still stops the start.
  try {
    readEmbeddingsConfig(env);
  } catch (error) {
    if (!(error instanceof EmbeddingsConfigError)) throw error;
    problems.push(error.message);
  }
  try {
    readCryptoSettings(env);
  } catch (error) {
    if (!(error instanceof CryptoSettingsError)) throw error;
    problems.push(error.message);
  }
  const schemes = readSchemes(e.TOOLGATE_SCHEMES, problems);
  const upstream = readUpstreamConfig(env, providers, problems);
  if (problems.length > 0) throw new ConfigError(problems);

  return {
    port,
    host: e.HOST ?? (local ? '127.0.0.1' : '0.0.0.0'),
    dataDir,
    network,
    publicBaseUrl: (e.TOOLGATE_PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    payTo: e.TOOLGATE_PAY_TO as Hex | undefined,
    rpcUrl: e.TOOLGATE_RPC_URL,
    settlerKeys: (e.TOOLGATE_SETTLER_PRIVATE_KEY ?? []) as Hex[],
    settlement: {
      mode: e.TOOLGATE_SETTLEMENT_MODE ?? 'confirmed',
      batchWindowMs: e.TOOLGATE_SETTLEMENT_BATCH_WINDOW_MS ?? 200,
      maxBatchSize: e.TOOLGATE_SETTLEMENT_MAX_BATCH ?? 100,
      confirmations: e.TOOLGATE_SETTLEMENT_CONFIRMATIONS ?? 1,
      replaceAfterMs: e.TOOLGATE_SETTLEMENT_REPLACE_AFTER_MS ?? (local ? 3_000 : 10_000),
      drainTimeoutMs: e.TOOLGATE_SETTLEMENT_DRAIN_TIMEOUT_MS ?? 30_000,
    },
    schemes,
    channels: {
      settlerKey: e.TOOLGATE_CHANNEL_SETTLER_PRIVATE_KEY as Hex | undefined,
      receiverAuthorizerKey: e.TOOLGATE_RECEIVER_AUTHORIZER_PRIVATE_KEY as Hex | undefined,
      minDepositCalls: e.TOOLGATE_CHANNEL_MIN_DEPOSIT_CALLS ?? 100,
      withdrawDelaySeconds: e.TOOLGATE_CHANNEL_WITHDRAW_DELAY_S ?? 86_400,
      claimIntervalMs: (e.TOOLGATE_CHANNEL_CLAIM_INTERVAL_S ?? 60) * 1000,
      // A claim row costs ~24k gas, a third of a 0.001 USDC price on Base: 0.05 USDC owed keeps it
      // under 1 % of what it collects, and caps what an active channel has at risk between claims.
      claimMinUnclaimed: e.TOOLGATE_CHANNEL_CLAIM_MIN_USDC ?? 50_000n,
      // Six hours quiet: whatever a channel owes is claimed (nothing more is coming to share its row).
      claimIdleMs: (e.TOOLGATE_CHANNEL_CLAIM_IDLE_S ?? 6 * 3_600) * 1000,
      withdrawPollMs: (e.TOOLGATE_CHANNEL_WITHDRAW_POLL_S ?? 15) * 1000,
      // A week: a refund costs us ~117k gas and a returning payer's new deposit ~140k more, so
      // channels in weekly use stay open; money left longer goes back without the payer asking.
      idleRefundSeconds: e.TOOLGATE_CHANNEL_IDLE_REFUND_S ?? 7 * 86_400,
      // local: our check of a plain voucher (native recovery, one reservation, one charge transaction);
      // sdk: every payment through @x402/evm's verify and settle (docs/decisions.md).
      voucherCheck: e.TOOLGATE_CHANNEL_VOUCHER_CHECK ?? 'local',
    },
    retryResultsMs: (e.TOOLGATE_RETRY_RESULTS_HOURS ?? 24) * 3_600_000,
    unpaidRetentionMs: (e.TOOLGATE_UNPAID_RETENTION_HOURS ?? 168) * 3_600_000,
    payerStanding: {
      probationMs: (e.TOOLGATE_PAYER_PROBATION_MINUTES ?? 60) * 60_000,
      cooldownMs: (e.TOOLGATE_PAYER_COOLDOWN_MINUTES ?? 60) * 60_000,
      chainFailuresPerHour: e.TOOLGATE_CHAIN_FAILURES_PER_HOUR ?? 10,
    },
    ethPriceUsd: e.TOOLGATE_ETH_PRICE_USD,
    preload: e.TOOLGATE_PRELOAD ?? 'light',
    // Host and port name a deployment slot that survives restarts; with an ephemeral port, the process.
    instance: e.TOOLGATE_INSTANCE_ID ?? `${hostname()}:${port === 0 ? `pid${process.pid}` : port}`,
    facilitatorUrl: e.TOOLGATE_FACILITATOR_URL,
    facilitatorTimeoutMs: e.TOOLGATE_FACILITATOR_TIMEOUT_MS ?? 30_000,
    maxBodyBytes: e.TOOLGATE_MAX_BODY_BYTES ?? 1024 * 1024,
    maxTimeoutSeconds: e.TOOLGATE_MAX_TIMEOUT_SECONDS ?? 300,
    receiptTimeoutMs: e.TOOLGATE_RECEIPT_TIMEOUT_MS ?? (local ? 15_000 : 60_000),
    pollingIntervalMs: e.TOOLGATE_POLLING_INTERVAL_MS ?? (local ? 50 : 250),
    localTokenName: e.TOOLGATE_LOCAL_TOKEN_NAME ?? 'USD Coin',
    localChainFile: e.TOOLGATE_LOCAL_CHAIN_FILE ? resolve(e.TOOLGATE_LOCAL_CHAIN_FILE) : undefined,
    ledger: e.TOOLGATE_DATABASE_URL
      ? { url: e.TOOLGATE_DATABASE_URL }
      : e.TOOLGATE_LEDGER === 'memory' ? 'memory' : { dir: resolve(e.TOOLGATE_LEDGER ?? resolve(dataDir, 'ledger')) },
    logLevel: e.TOOLGATE_LOG_LEVEL ?? 'info',
    trustedProxies: list(e.TOOLGATE_TRUSTED_PROXIES),
    allowedOrigins: list(e.TOOLGATE_ALLOWED_ORIGINS),
    allowedHosts: list(e.TOOLGATE_ALLOWED_HOSTS),
    dashboardToken: e.TOOLGATE_DASHBOARD_TOKEN,
    httpTimeouts,
    sse: {
      maxSessions: e.TOOLGATE_MAX_SSE_SESSIONS ?? 1_000,
      maxPerClient: e.TOOLGATE_MAX_SSE_SESSIONS_PER_CLIENT ?? 10,
      idleTimeoutMs: (e.TOOLGATE_SSE_IDLE_TIMEOUT_S ?? 300) * 1000,
    },
    upstream,
  };
}

/** TOOLGATE_SCHEMES: known names, each once, in the order given (default: exact, then batch-settlement). */
function readSchemes(value: string | undefined, problems: string[]): SchemeName[] {
  if (value === undefined) return [...schemeNames];
  const given = list(value);
  const unknown = given.filter((name) => !(schemeNames as readonly string[]).includes(name));
  if (unknown.length > 0) problems.push(`TOOLGATE_SCHEMES: unknown scheme ${unknown.map((n) => `"${n}"`).join(', ')}; known: ${schemeNames.join(', ')}`);
  else if (new Set(given).size !== given.length) problems.push(`TOOLGATE_SCHEMES: a scheme is listed twice (got "${value}")`);
  else if (given.length === 0) problems.push('TOOLGATE_SCHEMES: expected at least one scheme');
  return given as SchemeName[];
}
