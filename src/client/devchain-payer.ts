// The demo payer of a local toolgate (`npm start` writes <TOOLGATE_DATA_DIR>/devchain.json with
// anvil's public development key, funded with local USDC): used only against a gateway on this
// machine whose network and USDC are the ones that file names.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { DevChainFile } from '../chain/devchain.ts';

/** The part of the gateway's devchain.json the paying side reads. */
export type DevChainPayerFile = Pick<DevChainFile, 'rpcUrl' | 'network' | 'usdc' | 'payer'>;

export function devChainFilePath(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(env.TOOLGATE_DATA_DIR ?? '.toolgate', 'devchain.json');
}

/** The file's contents, or undefined when there is none (or it is not a devchain file). */
export async function readDevChainFile(env: NodeJS.ProcessEnv = process.env): Promise<DevChainPayerFile | undefined> {
  let text: string;
  try {
    text = await readFile(devChainFilePath(env), 'utf8');
  } catch {
    return undefined;
  }
  const file = JSON.parse(text) as Partial<DevChainPayerFile>;
  if (typeof file.rpcUrl !== 'string' || typeof file.network !== 'string' || typeof file.usdc !== 'string' || typeof file.payer?.privateKey !== 'string') return undefined;
  return file as DevChainPayerFile;
}
