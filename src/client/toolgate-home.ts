// Where the paying side keeps its state: TOOLGATE_HOME, else ~/.toolgate (the spend record, the
// payment channels it opened).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function toolgateHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOOLGATE_HOME ? resolve(env.TOOLGATE_HOME) : join(homedir(), '.toolgate');
}

export const spendRecordPath = (env: NodeJS.ProcessEnv = process.env): string => join(toolgateHome(env), 'spend.json');

/** The official batch-settlement client's own channel records (FileClientChannelStorage: <dir>/client/<channelId>.json). */
export const channelStorageDir = (env: NodeJS.ProcessEnv = process.env): string => join(toolgateHome(env), 'channels');

/** What this machine knows of each channel beyond the SDK's amounts: gateway, network, config, deposits, refunds. */
export const channelBookPath = (env: NodeJS.ProcessEnv = process.env): string => join(toolgateHome(env), 'channels.json');
