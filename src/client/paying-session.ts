// Builds a GatewaySession from the settings every paying face shares (CLI, bridge, library):
// the gateway's address, the payer, and the caps in USDC.
import { createPublicClient, http, type LocalAccount } from 'viem';
import { ChannelBook } from './channel-book.ts';
import { ChannelPayer, type ChainReader } from './channel-payment.ts';
import { gatewayAddress } from './gateway-address.ts';
import { GatewaySession, type SchemeChoice } from './gateway-session.ts';
import { resolvePayer } from './payer.ts';
import { SpendLimits } from './spend-limits.ts';
import { SpendRecord } from './spend-record.ts';
import { channelBookPath, channelStorageDir, spendRecordPath } from './toolgate-home.ts';
import { rpcUrlFor } from './usdc-balance.ts';
import { parseUsdc } from './usdc-amount.ts';

export interface PayingSettings {
  /** Gateway base URL or its /mcp endpoint. Default TOOLGATE_URL, else http://localhost:4021. */
  url?: string;
  /** Per-call cap in USDC ("0.01"). Default: the price the gateway's documents advertise for the tool. */
  maxPrice?: string;
  /** Per-day cap in USDC for this machine's spend record. Default TOOLGATE_DAILY_BUDGET, else none. */
  dailyBudget?: string;
  /** Cap in USDC for the life of this session. */
  sessionBudget?: string;
  /** A Web3 Secret Storage v3 file (passphrase from TOOLGATE_KEYSTORE_PASSWORD or askPassphrase). */
  keystore?: string;
  /** The payer's account, when the caller already has one (the library's `payer` option). */
  account?: LocalAccount;
  askPassphrase?: (question: string) => Promise<string>;
  env?: NodeJS.ProcessEnv;
  /** `exact`, `batch-settlement` (payment channels only) or `auto` (default: a channel when offered and its deposit fits the budgets). */
  scheme?: SchemeChoice;
  /** A channel's deposit in USDC; the gateway's announced minDeposit is the floor and the default. */
  deposit?: string;
  /** JSON-RPC for reading the channel contract (else Base's defaults, or a local gateway's devchain.json; none: the client's own records only). */
  rpcUrl?: string;
}

const SCHEMES: readonly SchemeChoice[] = ['exact', 'batch-settlement', 'auto'];

export function schemeFrom(value: string | undefined): SchemeChoice {
  if (value === undefined) return 'auto';
  if (!(SCHEMES as readonly string[]).includes(value)) throw new Error(`--scheme must be one of ${SCHEMES.join(', ')} (got ${JSON.stringify(value)})`);
  return value as SchemeChoice;
}

/** A reader of the channel contract for the network, when an RPC endpoint is known for it. */
export function chainReader(explicit: string | undefined, env: NodeJS.ProcessEnv): (network: string) => Promise<ChainReader | undefined> {
  const readers = new Map<string, Promise<ChainReader | undefined>>();
  return (network) => {
    let reader = readers.get(network);
    if (!reader) {
      reader = rpcUrlFor(network, explicit, env).then(
        (url) => createPublicClient({ transport: http(url, { timeout: 15_000, retryCount: 1 }) }) as unknown as ChainReader,
        () => undefined,
      );
      readers.set(network, reader);
    }
    return reader;
  };
}

export function channelPayer(settings: PayingSettings, limits: SpendLimits, gateway: string): ChannelPayer {
  const env = settings.env ?? process.env;
  const deposit = optionalUsdc(settings.deposit, '--deposit');
  return new ChannelPayer({
    storageDir: channelStorageDir(env),
    book: new ChannelBook(channelBookPath(env)),
    limits,
    gateway,
    reader: chainReader(settings.rpcUrl, env),
    ...(deposit !== undefined ? { deposit } : {}),
  });
}

const optionalUsdc = (value: string | undefined, what: string): bigint | undefined => (value === undefined || value === '' ? undefined : parseUsdc(value, what));

export function limitsFrom(settings: PayingSettings): SpendLimits {
  const env = settings.env ?? process.env;
  const maxPrice = optionalUsdc(settings.maxPrice, '--max-price');
  const dailyBudget = optionalUsdc(settings.dailyBudget ?? env.TOOLGATE_DAILY_BUDGET, settings.dailyBudget === undefined ? 'TOOLGATE_DAILY_BUDGET' : '--daily-budget');
  const sessionBudget = optionalUsdc(settings.sessionBudget, '--session-budget');
  return new SpendLimits({
    record: new SpendRecord(spendRecordPath(env)),
    ...(maxPrice !== undefined ? { maxPrice } : {}),
    ...(dailyBudget !== undefined ? { dailyBudget } : {}),
    ...(sessionBudget !== undefined ? { sessionBudget } : {}),
  });
}

export function payingSession(settings: PayingSettings): GatewaySession {
  const env = settings.env ?? process.env;
  const address = gatewayAddress(settings.url, env);
  const limits = limitsFrom(settings);
  const scheme = schemeFrom(settings.scheme);
  return new GatewaySession({
    address,
    limits,
    scheme,
    ...(scheme !== 'exact' ? { channels: channelPayer(settings, limits, address.baseUrl) } : {}),
    payer: async (tools) =>
      settings.account ??
      (
        await resolvePayer(
          { address, env, ...(settings.keystore ? { keystore: settings.keystore } : {}), ...(settings.askPassphrase ? { askPassphrase: settings.askPassphrase } : {}) },
          tools,
        )
      ).account,
  });
}
