// The toolgate command as real processes against a gateway on anvil with Circle's USDC: it pays
// and prints the receipt, refuses over its caps with nothing signed, and concurrent invocations
// sharing one spend record cannot overspend a daily budget.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { Address, Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { catalog } from '../../src/catalog/index.ts';
import { devPrivateKey } from '../../src/chain/dev-accounts.ts';
import { mintUsdc } from '../../src/chain/fiat-token.ts';
import { SpendRecord } from '../../src/client/spend-record.ts';
import { runToolgate } from '../support/cli-process.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { chainClients, fundedPayerKey } from '../support/payments.ts';
import { countingEchoTool, upstreamDownTool } from '../support/test-tools.ts';

let t: TestGateway;
let scratch: string;
const echo = countingEchoTool('0.004');
const testTools = [echo.tool, upstreamDownTool()];
before(async () => {
  // These tests are about exact payments (one settlement per call); paying by channel: channel-payer.test.ts.
  t = await startTestGateway({ catalog: [...catalog, ...testTools], env: { TOOLGATE_SCHEMES: 'exact' } });
  scratch = await mkdtemp(join(tmpdir(), 'toolgate-cli-'));
});
after(async () => {
  await t?.close();
  await rm(scratch, { recursive: true, force: true });
});

let homes = 0;
const freshHome = () => join(scratch, `home-${++homes}`);

test('toolgate call pays: exit 0, the result, the price and a transaction that moved exactly the price', { timeout: 90_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const payer = privateKeyToAccount(key);
  const { balanceOf, publicClient } = chainClients(t.devChain);
  const before = await balanceOf(t.devChain.payTo);
  const run = await runToolgate(['call', 'test_echo', 'word=hello', '--url', t.baseUrl], { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: freshHome() });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /"echo": "hello"/);
  assert.match(run.stdout, new RegExp(`paid 0\\.004 USDC on local devchain from ${payer.address}`));
  const hash = /transaction (0x[0-9a-f]{64})/.exec(run.stdout)?.[1] as Hex | undefined;
  assert.ok(hash, run.stdout);
  assert.equal((await publicClient.getTransactionReceipt({ hash })).status, 'success');
  assert.equal((await balanceOf(t.devChain.payTo)) - before, 4000n);
});

test('a paid call whose provider is down: the reason, its code and "you were not charged", each said once; nothing moved', { timeout: 90_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const { balanceOf } = chainClients(t.devChain);
  const before = await balanceOf(privateKeyToAccount(key).address);
  const run = await runToolgate(['call', 'test_upstream_down', '--url', t.baseUrl], { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: freshHome() });
  assert.notEqual(run.code, 0);
  assert.match(run.stderr, /Example: could not be reached \(dns failed\) \(upstream_unavailable\); you were not charged/);
  assert.equal(run.stderr.match(/not charged/gi)?.length, 1, run.stderr);
  assert.equal(run.stderr.match(/upstream_unavailable/g)?.length, 1, run.stderr);
  assert.equal(await balanceOf(privateKeyToAccount(key).address), before);
});

test('toolgate call --json prints one JSON document with the output and the receipt', { timeout: 90_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const run = await runToolgate(['call', 'test_echo', '--input', '{"word":"json"}', '--json'], { TOOLGATE_URL: t.baseUrl, TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: freshHome() });
  assert.equal(run.code, 0, run.stderr);
  const printed = JSON.parse(run.stdout) as { output: unknown; receipt: { price: string; transaction: string; payer: string } };
  assert.deepEqual(printed.output, { echo: 'json' });
  assert.equal(printed.receipt.price, '0.004');
  assert.equal(printed.receipt.payer, privateKeyToAccount(key).address);
  assert.match(printed.receipt.transaction, /^0x[0-9a-f]{64}$/);
});

test('toolgate tools lists the tools with the prices and inputs of the discovery document', { timeout: 90_000 }, async () => {
  const run = await runToolgate(['tools', '--url', t.baseUrl, '--json'], {});
  assert.equal(run.code, 0, run.stderr);
  const tools = JSON.parse(run.stdout) as { name: string; price: string; atomicPrice: string; inputSchema: { properties: Record<string, unknown> } }[];
  assert.equal(tools.length, catalog.length + testTools.length);
  const listed = tools.find((x) => x.name === 'test_echo');
  assert.equal(listed?.price, '0.004');
  assert.equal(listed?.atomicPrice, '4000');
  assert.deepEqual(Object.keys(listed?.inputSchema.properties ?? {}), ['word']);
  const human = await runToolgate(['tools', '--url', t.baseUrl], {});
  assert.match(human.stdout, /test_echo\s+0\.004 USDC\s+Echo\n\s+word: string/);
});

test('over --max-price: exit 3, the price and how to raise the cap on stderr, nothing signed or moved; --dry-run signs nothing', { timeout: 90_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const payer = privateKeyToAccount(key);
  const { balanceOf } = chainClients(t.devChain);
  const before = [await balanceOf(payer.address), await balanceOf(t.devChain.payTo)] as const;
  const runs = echo.runs.count;
  const home = freshHome();
  const refused = await runToolgate(['call', 'test_echo', 'word=x', '--max-price', '0.003', '--url', t.baseUrl], { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: home });
  assert.equal(refused.code, 3);
  assert.equal(refused.stdout, '');
  assert.match(refused.stderr, /refused, nothing signed: test_echo costs 0\.004 USDC, above the per-call cap of 0\.003 USDC; raise it with --max-price/);
  const dry = await runToolgate(['call', 'test_echo', 'word=x', '--dry-run', '--url', t.baseUrl], { TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: home });
  assert.equal(dry.code, 0, dry.stderr);
  assert.match(dry.stdout, /test_echo costs 0\.004 USDC/);
  assert.match(dry.stdout, new RegExp(`"from": "${payer.address}"`));
  assert.match(dry.stdout, new RegExp(`"to": "${t.devChain.payTo}"`));
  assert.equal(echo.runs.count, runs);
  assert.equal(await balanceOf(payer.address), before[0]);
  assert.equal(await balanceOf(t.devChain.payTo), before[1]);
  assert.deepEqual(await new SpendRecord(join(home, 'spend.json')).entries(), []);
});

test('six concurrent processes under a daily budget of three prices: exactly three pay, payTo receives exactly three prices', { timeout: 90_000 }, async () => {
  const key = await fundedPayerKey(t.devChain, '1');
  const { balanceOf } = chainClients(t.devChain);
  const home = freshHome();
  const before = await balanceOf(t.devChain.payTo);
  const runs = echo.runs.count;
  const env = { TOOLGATE_URL: t.baseUrl, TOOLGATE_PAYER_KEY: key, TOOLGATE_HOME: home, TOOLGATE_DAILY_BUDGET: '0.012' };
  const results = await Promise.all(Array.from({ length: 6 }, (_, i) => runToolgate(['call', 'test_echo', `word=w${i}`], env)));
  const codes = results.map((r) => r.code).sort();
  assert.deepEqual(codes, [0, 0, 0, 3, 3, 3], results.map((r) => r.stderr).join('\n'));
  for (const refused of results.filter((r) => r.code === 3)) assert.match(refused.stderr, /0\.012 of the daily budget of 0\.012 USDC is already spent.*--daily-budget/);
  assert.equal((await balanceOf(t.devChain.payTo)) - before, 12_000n);
  assert.equal(echo.runs.count - runs, 3);
  const entries = await new SpendRecord(join(home, 'spend.json')).entries();
  assert.deepEqual(entries.map((e) => e.state), ['spent', 'spent', 'spent']);
});

test('with no payer configured against a local gateway, the demo payer of devchain.json pays; wallet address and balance name it', { timeout: 90_000 }, async () => {
  const dataDir = join(scratch, 'data');
  const { rpcUrl, chainId, network, usdc, payTo, payer, tokenName } = t.devChain;
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, 'devchain.json'), JSON.stringify({ rpcUrl, chainId, network, usdc, payTo, payer, tokenName }));
  const env = { TOOLGATE_URL: t.baseUrl, TOOLGATE_DATA_DIR: dataDir, TOOLGATE_HOME: freshHome() };
  const paid = await runToolgate(['call', 'generate_hashes_and_uuids', '--json'], env);
  assert.equal(paid.code, 0, paid.stderr);
  assert.equal((JSON.parse(paid.stdout) as { receipt: { payer: string } }).receipt.payer, payer.address);
  const address = await runToolgate(['wallet', 'address'], env);
  assert.equal(address.stdout.trim(), `${payer.address} (demo payer of ${join(dataDir, 'devchain.json')})`);
  const balance = await runToolgate(['wallet', 'balance', '--json'], env);
  assert.equal(balance.code, 0, balance.stderr);
  const { balanceOf } = chainClients(t.devChain);
  assert.equal((JSON.parse(balance.stdout) as { atomic: string }).atomic, (await balanceOf(payer.address)).toString());
  // Without the file (another data directory), there is no payer: a clear error, exit non-zero.
  const none = await runToolgate(['call', 'generate_hashes_and_uuids'], { ...env, TOOLGATE_DATA_DIR: join(scratch, 'empty') });
  assert.equal(none.code, 1);
  assert.match(none.stderr, /no payer configured.*TOOLGATE_PAYER_KEY.*--keystore/);
});

test('bad input is refused before anything is asked: an unknown input name, an unknown tool', { timeout: 90_000 }, async () => {
  const env = { TOOLGATE_URL: t.baseUrl, TOOLGATE_HOME: freshHome() };
  const [name, tool] = await Promise.all([runToolgate(['call', 'test_echo', 'wrd=x'], env), runToolgate(['call', 'no_such_tool'], env)]);
  assert.equal(name.code, 2);
  assert.match(name.stderr, /test_echo takes no input named "wrd"; it takes: word/);
  assert.equal(tool.code, 1);
  assert.match(tool.stderr, /unknown tool "no_such_tool"; the gateway sells: browse_web_stealth, /);
});

test('wallet new writes a v3 keystore; funded, it pays with --keystore and the passphrase from the environment; a wrong one is refused', { timeout: 90_000 }, async () => {
  const file = join(scratch, 'wallet', 'keystore.json');
  const env = { TOOLGATE_URL: t.baseUrl, TOOLGATE_HOME: freshHome(), TOOLGATE_KEYSTORE_PASSWORD: 'correct horse battery' };
  const created = await runToolgate(['wallet', 'new', '--keystore', file, '--json'], env);
  assert.equal(created.code, 0, created.stderr);
  const { address } = JSON.parse(created.stdout) as { address: Address };
  const stored = JSON.parse(await readFile(file, 'utf8')) as { version: number; address: string; crypto: { kdf: string } };
  assert.deepEqual([stored.version, stored.address, stored.crypto.kdf], [3, address.slice(2).toLowerCase(), 'scrypt']);
  assert.equal((await stat(file)).mode & 0o777, 0o600);
  const again = await runToolgate(['wallet', 'new', '--keystore', file], env);
  assert.equal(again.code, 2);
  assert.match(again.stderr, /exists already/);

  await mintUsdc({ rpcUrl: t.devChain.rpcUrl, chainId: t.devChain.chainId, ownerKey: devPrivateKey('tokenOwner'), token: t.devChain.usdc, to: address, amount: 10_000n });
  const paid = await runToolgate(['call', 'test_echo', 'word=keystore', '--keystore', file, '--json'], env);
  assert.equal(paid.code, 0, paid.stderr);
  assert.equal((JSON.parse(paid.stdout) as { receipt: { payer: string } }).receipt.payer, address);
  const { balanceOf } = chainClients(t.devChain);
  assert.equal(await balanceOf(address), 6_000n);

  const wrong = await runToolgate(['wallet', 'address', '--keystore', file], { ...env, TOOLGATE_KEYSTORE_PASSWORD: 'wrong horse battery' });
  assert.equal(wrong.code, 1);
  assert.match(wrong.stderr, /wrong passphrase for this keystore/);
});

test('npx toolgate in the checkout runs this bin, never a registry package (--offline would fail if npm had to fetch one)', { timeout: 60_000 }, async () => {
  const root = new URL('../..', import.meta.url).pathname;
  const run = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve, reject) => {
    const child = spawn('npx', ['--offline', 'toolgate', '--help'], { cwd: join(root, 'src'), env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /^toolgate: pay toolgate's tools per call in USDC \(x402\), within caps you set\./);
});
