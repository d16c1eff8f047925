// Who pays: the key in TOOLGATE_PAYER_KEY, or an encrypted keystore (--keystore, passphrase from
// TOOLGATE_KEYSTORE_PASSWORD or a prompt), or, with neither, the demo payer of a local gateway's
// devchain.json. Anything else is an error that says how to configure one.
import { readFile } from 'node:fs/promises';
import { privateKeyToAccount } from 'viem/accounts';
import type { Hex, LocalAccount } from 'viem';
import { readDevChainFile, devChainFilePath } from './devchain-payer.ts';
import { isLoopback, type GatewayAddress } from './gateway-address.ts';
import type { GatewayTool } from './gateway-tools.ts';
import { decryptKeystore, parseKeystore } from './keystore.ts';

export interface PayerOptions {
  address: GatewayAddress;
  /** Path of a Web3 Secret Storage v3 file. */
  keystore?: string;
  /** Asked only when TOOLGATE_KEYSTORE_PASSWORD is unset. */
  askPassphrase?: (question: string) => Promise<string>;
  env?: NodeJS.ProcessEnv;
}

export interface ResolvedPayer {
  account: LocalAccount;
  /** Where the key came from, for `wallet address` and error messages. */
  source: string;
}

const PRIVATE_KEY = /^0x[0-9a-fA-F]{64}$/;

export function accountFromKey(key: string, source: string): LocalAccount {
  const trimmed = key.trim();
  const hex = (trimmed.startsWith('0x') ? trimmed : `0x${trimmed}`) as Hex;
  if (!PRIVATE_KEY.test(hex)) throw new Error(`${source} must be a 32-byte private key in hex (0x followed by 64 hex digits)`);
  return privateKeyToAccount(hex);
}

export async function readKeystoreAccount(path: string, options: Pick<PayerOptions, 'askPassphrase' | 'env'>): Promise<LocalAccount> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (error) {
    throw new Error(`cannot read the keystore ${path}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
  }
  const keystore = parseKeystore(text, path);
  const env = options.env ?? process.env;
  let passphrase = env.TOOLGATE_KEYSTORE_PASSWORD;
  if (passphrase === undefined) {
    if (!options.askPassphrase) throw new Error(`the keystore ${path} needs its passphrase: set TOOLGATE_KEYSTORE_PASSWORD`);
    passphrase = await options.askPassphrase(`Passphrase for ${path}: `);
  }
  return privateKeyToAccount(await decryptKeystore(keystore, passphrase));
}

/** `tools` is read only when the demo payer is considered (no key, no keystore). */
export async function resolvePayer(options: PayerOptions, tools: () => Promise<readonly GatewayTool[]>): Promise<ResolvedPayer> {
  const env = options.env ?? process.env;
  if (options.keystore) return { account: await readKeystoreAccount(options.keystore, options), source: `keystore ${options.keystore}` };
  if (env.TOOLGATE_PAYER_KEY) return { account: accountFromKey(env.TOOLGATE_PAYER_KEY, 'TOOLGATE_PAYER_KEY'), source: 'TOOLGATE_PAYER_KEY' };
  const terms = (await tools())[0];
  const devChain = await readDevChainFile(env);
  if (devChain && terms && isLoopback(options.address) && devChain.network === terms.network && devChain.usdc.toLowerCase() === terms.asset.toLowerCase()) {
    return { account: accountFromKey(devChain.payer.privateKey, devChainFilePath(env)), source: `demo payer of ${devChainFilePath(env)}` };
  }
  const hint = terms?.network === 'eip155:31337' ? ` (no devchain.json of this local gateway at ${devChainFilePath(env)}: set TOOLGATE_DATA_DIR to the gateway's data directory)` : '';
  throw new Error(`no payer configured${hint}: set TOOLGATE_PAYER_KEY=0x… or pass --keystore <file> (create one with \`toolgate wallet new\`)`);
}
