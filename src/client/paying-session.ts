// Builds a GatewaySession from the settings every paying face shares (CLI, bridge, library):
// the gateway's address, the payer, and the caps in USDC.
import type { LocalAccount } from 'viem';
import { gatewayAddress } from './gateway-address.ts';
import { GatewaySession } from './gateway-session.ts';
import { resolvePayer } from './payer.ts';
import { SpendLimits } from './spend-limits.ts';
import { SpendRecord } from './spend-record.ts';
import { spendRecordPath } from './toolgate-home.ts';
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
  return new GatewaySession({
    address,
    limits,
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
