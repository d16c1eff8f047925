// From parsed flags to the settings the paying side shares.
import type { PayingSettings } from '../client/paying-session.ts';
import type { ParsedArgs } from './args.ts';
import { promptPassphrase } from './prompt-passphrase.ts';

export function payingSettings(args: ParsedArgs): PayingSettings {
  const { values } = args;
  return {
    ...(values.url !== undefined ? { url: values.url } : {}),
    ...(values['max-price'] !== undefined ? { maxPrice: values['max-price'] } : {}),
    ...(values['daily-budget'] !== undefined ? { dailyBudget: values['daily-budget'] } : {}),
    ...(values['session-budget'] !== undefined ? { sessionBudget: values['session-budget'] } : {}),
    ...(values.keystore !== undefined ? { keystore: values.keystore } : {}),
    askPassphrase: promptPassphrase,
  };
}
