// Where the paying side keeps its state: TOOLGATE_HOME, else ~/.toolgate (the spend record).
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

export function toolgateHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.TOOLGATE_HOME ? resolve(env.TOOLGATE_HOME) : join(homedir(), '.toolgate');
}

export const spendRecordPath = (env: NodeJS.ProcessEnv = process.env): string => join(toolgateHome(env), 'spend.json');
