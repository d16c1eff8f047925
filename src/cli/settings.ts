// From parsed flags to the settings the paying side shares.
import type { PayingSettings } from '../client/paying-session.ts';
import { UsageError, type ParsedArgs } from './args.ts';
import { promptPassphrase } from './prompt-passphrase.ts';

const SCHEMES = ['exact', 'batch-settlement', 'auto'] as const;

export function payingSettings(args: ParsedArgs): PayingSettings {
  const { values } = args;
  const scheme = values.scheme;
  if (scheme !== undefined && !(SCHEMES as readonly string[]).includes(scheme)) throw new UsageError(`--scheme must be one of ${SCHEMES.join(', ')} (got ${JSON.stringify(scheme)})`);
  return {
    ...(scheme !== undefined ? { scheme: scheme as (typeof SCHEMES)[number] } : {}),
    ...(values.deposit !== undefined ? { deposit: values.deposit } : {}),
    ...(values['rpc-url'] !== undefined ? { rpcUrl: values['rpc-url'] } : {}),
    ...(values.url !== undefined ? { url: values.url } : {}),
    ...(values['max-price'] !== undefined ? { maxPrice: values['max-price'] } : {}),
    ...(values['daily-budget'] !== undefined ? { dailyBudget: values['daily-budget'] } : {}),
    ...(values['session-budget'] !== undefined ? { sessionBudget: values['session-budget'] } : {}),
    ...(values.keystore !== undefined ? { keystore: values.keystore } : {}),
    askPassphrase: promptPassphrase,
  };
}
