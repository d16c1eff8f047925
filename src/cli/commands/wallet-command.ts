// toolgate wallet new|address|balance|channels|refund: an encrypted keystore, the payer's address,
// its USDC, the payment channels this machine opened and a cooperative refund of one.
import { access, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { networkName } from '../../client/explorer.ts';
import { gatewayAddress } from '../../client/gateway-address.ts';
import { readGatewayTools, type GatewayTool } from '../../client/gateway-tools.ts';
import { encryptKeystore } from '../../client/keystore.ts';
import { resolvePayer, type ResolvedPayer } from '../../client/payer.ts';
import { toolgateHome } from '../../client/toolgate-home.ts';
import { channelPayer, chainReader, limitsFrom, payingSession } from '../../client/paying-session.ts';
import { toClientEvmSigner } from '@x402/evm';
import { readChannelBalanceAndTotalClaimed } from '@x402/evm/batch-settlement/client';
import type { Address } from 'viem';
import { payingSettings } from '../settings.ts';
import { rpcUrlFor, usdcBalance } from '../../client/usdc-balance.ts';
import { formatUsdc } from '../../client/usdc-amount.ts';
import { UsageError, type ParsedArgs } from '../args.ts';
import { EXIT, json, out } from '../output.ts';
import { promptPassphrase } from '../prompt-passphrase.ts';

async function newPassphrase(): Promise<string> {
  const fromEnv = process.env.TOOLGATE_KEYSTORE_PASSWORD;
  if (fromEnv !== undefined) {
    if (fromEnv.length < 8) throw new UsageError('TOOLGATE_KEYSTORE_PASSWORD must be at least 8 characters');
    return fromEnv;
  }
  const first = await promptPassphrase('New passphrase (8+ characters): ');
  if (first.length < 8) throw new UsageError('the passphrase must be at least 8 characters');
  if ((await promptPassphrase('Again: ')) !== first) throw new UsageError('the two passphrases differ');
  return first;
}

async function walletNew(args: ParsedArgs): Promise<number> {
  const path = args.values.keystore ?? join(toolgateHome(), 'keystore.json');
  if (await access(path).then(() => true, () => false)) throw new UsageError(`${path} exists already; choose another file with --keystore <file>`);
  const passphrase = await newPassphrase();
  const privateKey = generatePrivateKey();
  const keystore = await encryptKeystore(privateKey, passphrase);
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  await writeFile(path, `${JSON.stringify(keystore, null, 2)}\n`, { mode: 0o600, flag: 'wx' });
  const address = privateKeyToAccount(privateKey).address;
  if (args.switches.json) out(json({ address, keystore: path }));
  else {
    out(`new wallet ${address}`);
    out(`keystore ${path} (Web3 Secret Storage v3, scrypt; keep the passphrase: it cannot be recovered)`);
    out(`fund it with USDC on the gateway's network, then pay with: toolgate call <tool> --keystore ${path}`);
  }
  return EXIT.ok;
}

function payerOf(args: ParsedArgs, tools: () => Promise<GatewayTool[]>): Promise<ResolvedPayer> {
  return resolvePayer({ address: gatewayAddress(args.values.url), ...(args.values.keystore ? { keystore: args.values.keystore } : {}), askPassphrase: promptPassphrase }, tools);
}

async function walletAddress(args: ParsedArgs): Promise<number> {
  const address = gatewayAddress(args.values.url);
  const payer = await payerOf(args, () => readGatewayTools(address.baseUrl));
  out(args.switches.json ? json({ address: payer.account.address, source: payer.source }) : `${payer.account.address} (${payer.source})`);
  return EXIT.ok;
}

async function walletBalance(args: ParsedArgs): Promise<number> {
  const address = gatewayAddress(args.values.url);
  const tools = await readGatewayTools(address.baseUrl);
  const payer = await payerOf(args, async () => tools);
  const { network, asset } = tools[0]!;
  const rpcUrl = await rpcUrlFor(network, args.values['rpc-url']);
  const balance = await usdcBalance(rpcUrl, asset, payer.account.address);
  if (args.switches.json) out(json({ address: payer.account.address, network, asset, balance: formatUsdc(balance), atomic: balance.toString(), rpcUrl }));
  else out(`${formatUsdc(balance)} USDC on ${networkName(network)} (${network}) at ${payer.account.address} (${payer.source})`);
  return EXIT.ok;
}

/** Claimed and on-chain balance of a channel, when a JSON-RPC endpoint is known for its network. */
async function onChain(network: string, payer: string, id: string, rpcUrl: string | undefined): Promise<{ balance: bigint; claimed: bigint } | undefined> {
  const reader = await chainReader(rpcUrl, process.env)(network);
  if (!reader) return undefined;
  const refuses = async (): Promise<never> => {
    throw new Error('reading only');
  };
  try {
    const [balance, claimed] = await readChannelBalanceAndTotalClaimed(toClientEvmSigner({ address: payer as Address, signTypedData: refuses }, reader), id as Address);
    return { balance, claimed };
  } catch {
    return undefined;
  }
}

async function walletChannels(args: ParsedArgs): Promise<number> {
  const settings = payingSettings(args);
  const channels = channelPayer(settings, limitsFrom(settings), gatewayAddress(settings.url).baseUrl);
  const rows = [];
  for (const entry of await channels.options.book.list()) {
    const state = await channels.state(entry.id);
    const chain = entry.closedAt ? undefined : await onChain(entry.network, entry.config.payer, entry.id, settings.rpcUrl);
    const charged = state?.charged ?? 0n;
    const balance = state?.balance ?? 0n;
    rows.push({
      id: entry.id,
      gateway: entry.gateway,
      network: entry.network,
      payer: entry.config.payer,
      payTo: entry.config.receiver,
      state: entry.closedAt ? 'closed' : 'open',
      deposited: formatUsdc(BigInt(entry.deposited)),
      spent: formatUsdc(charged),
      ...(chain ? { claimed: formatUsdc(chain.claimed), onchainBalance: formatUsdc(chain.balance) } : {}),
      refundable: formatUsdc(entry.closedAt || balance < charged ? 0n : balance - charged),
      ...(entry.refunded ? { refunded: formatUsdc(BigInt(entry.refunded)) } : {}),
      openedAt: entry.openedAt,
    });
  }
  if (args.switches.json) {
    out(json(rows));
    return EXIT.ok;
  }
  if (rows.length === 0) out('no payment channels opened from this machine');
  for (const r of rows) {
    out(`${r.id} (${r.state}) with ${r.gateway} on ${networkName(r.network)}, payer ${r.payer}`);
    out(`  deposited ${r.deposited} USDC, spent ${r.spent}${r.claimed !== undefined ? `, claimed by the gateway ${r.claimed}` : ''}, refundable ${r.refundable}${r.refunded ? `, refunded ${r.refunded}` : ''}`);
  }
  return EXIT.ok;
}

async function walletRefund(args: ParsedArgs): Promise<number> {
  const session = payingSession({ ...payingSettings(args), scheme: 'auto' });
  try {
    const refund = await session.refundChannel(args.values.channel);
    if (args.switches.json) out(json({ channel: refund.channelId, refunded: formatUsdc(refund.refunded), transaction: refund.transaction }));
    else out(`refunded ${formatUsdc(refund.refunded)} USDC from channel ${refund.channelId}, transaction ${refund.transaction}`);
    return EXIT.ok;
  } finally {
    await session.close();
  }
}

export async function walletCommand(args: ParsedArgs): Promise<number> {
  const [action] = args.positionals;
  if (action === 'new') return walletNew(args);
  if (action === 'address') return walletAddress(args);
  if (action === 'balance') return walletBalance(args);
  if (action === 'channels') return walletChannels(args);
  if (action === 'refund') return walletRefund(args);
  throw new UsageError(`toolgate wallet new|address|balance|channels|refund (got ${action === undefined ? 'nothing' : JSON.stringify(action)})`);
}
