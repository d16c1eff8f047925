// kill -9 at each stage of a paid call, with real processes: a gateway process on a shared
// PostgreSQL ledger and a local chain that outlives it (TOOLGATE_LOCAL_CHAIN_FILE). After each
// restart every payment ends settled or released: none lost, none settled twice, and the one
// charged while its process died gives its result to the retry that carries its payment-identifier.
// Then SIGTERM: in-flight calls finish and settle, the process exits 0.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { decodePaymentResponseHeader } from '@x402/core/http';
import type { PaymentPayload } from '@x402/core/types';
import { appendPaymentIdentifierToExtensions, generatePaymentId } from '@x402/extensions/payment-identifier';
import pg from 'pg';
import type { Hex, PrivateKeyAccount } from 'viem';
import type { DevChain } from '../../src/chain/devchain.ts';
import { startDevChain, writeDevChainFile } from '../../src/chain/devchain.ts';
import { fixture, startFixtureServer } from '../support/fixture-server.ts';
import type { FixtureServer } from '../support/fixture-server.ts';
import { startGatewayProcess } from '../support/gateway-process.ts';
import type { GatewayProcess } from '../support/gateway-process.ts';
import { chainClients, fundedPayer, paymentHeader, readPaymentRequired, signPayment } from '../support/payments.ts';
import { startPostgres } from '../support/postgres-server.ts';
import type { PostgresServer } from '../support/postgres-server.ts';
import { until } from '../support/until.ts';

let chain: DevChain;
let server: PostgresServer;
let upstream: FixtureServer;
let db: pg.Client;
let env: Record<string, string>;
let dataDir: string;
const running: GatewayProcess[] = [];

before(async () => {
  [chain, server, upstream] = await Promise.all([startDevChain({ tokenName: 'USD Coin' }), startPostgres(), startFixtureServer()]);
  dataDir = await mkdtemp(join(tmpdir(), 'toolgate-crash-'));
  const databaseUrl = await server.createDatabase('crash');
  db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  env = {
    TOOLGATE_DATA_DIR: dataDir,
    TOOLGATE_LOCAL_CHAIN_FILE: await writeDevChainFile(join(dataDir, 'chain'), chain),
    TOOLGATE_DATABASE_URL: databaseUrl,
    TOOLGATE_INSTANCE_ID: 'crash-test',
    TOOLGATE_FRANKFURTER_URL: `${upstream.origin}/frankfurter`,
    TOOLGATE_LOG_LEVEL: 'warn',
  };
});
after(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await db?.end();
  await Promise.all([chain?.stop(), server?.stop(), upstream?.close()]);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function start() {
  const gateway = await startGatewayProcess(env);
  running.push(gateway);
  return gateway;
}

async function killHard(gateway: GatewayProcess): Promise<void> {
  gateway.child.kill('SIGKILL');
  await gateway.exited;
}

const rpc = (method: string, params: unknown[]) => chainClients(chain).publicClient.request({ method: method as 'eth_chainId', params: params as never });

async function rowOf(payer: PrivateKeyAccount): Promise<{ state: string; tx_hash: string | null } | undefined> {
  const { rows } = await db.query<{ state: string; tx_hash: string | null }>('SELECT state, tx_hash FROM payments WHERE payer = $1', [payer.address.toLowerCase()]);
  return rows[0];
}

/** A payment for `path` carrying payment-identifier `id`, signed by `payer` against the gateway's 402. */
async function identified(baseUrl: string, path: string, payer: PrivateKeyAccount, id: string): Promise<string> {
  const required = readPaymentRequired(await fetch(`${baseUrl}${path}`));
  const extensions = structuredClone(required.extensions ?? {});
  appendPaymentIdentifierToExtensions(extensions, id);
  const payload: PaymentPayload = { ...(await signPayment(payer, required.accepts[0]!)), extensions };
  return paymentHeader(payload);
}

const FX = '/api/finance/fx?from=USD&to=EUR,GBP';
const UUID = '/api/tools/uuid';

describe('crash safety with real processes', () => {
  test('kill -9 during the handler, then after the settlement is sent: each payment ends settled or released, the charged one gives its result on retry', async () => {
    const { balanceOf } = chainClients(chain);
    const payToBefore = await balanceOf(chain.payTo);

    // 1. Killed after the lock, inside the handler (its upstream never answers).
    upstream.on('/frankfurter/v1/latest', { delayMs: 60_000, body: '' });
    let gateway = await start();
    const inHandler = await fundedPayer(chain, '1');
    const idInHandler = generatePaymentId();
    const lost = fetch(`${gateway.baseUrl}${FX}`, { headers: { 'PAYMENT-SIGNATURE': await identified(gateway.baseUrl, FX, inHandler, idInHandler) } }).catch((e: unknown) => e);
    await until(async () => (await rowOf(inHandler))?.state === 'running' && upstream.requests.some((r) => r.path === '/frankfurter/v1/latest'), 'the handler to run');
    await killHard(gateway);
    assert.ok((await lost) instanceof Error, 'the caller got no answer');

    // Restarted under the same instance name: its call cut off in the handler is released at once.
    gateway = await start();
    assert.equal((await rowOf(inHandler))?.state, 'released');
    assert.equal(await balanceOf(inHandler.address), 1_000_000n, 'not charged');

    // 2. Killed after the settlement transaction was sent, before its receipt (mining paused).
    const sent = await fundedPayer(chain, '1');
    const idSent = generatePaymentId();
    await rpc('evm_setIntervalMining', [0]);
    await rpc('evm_setAutomine', [false]);
    const cut = fetch(`${gateway.baseUrl}${UUID}`, { headers: { 'PAYMENT-SIGNATURE': await identified(gateway.baseUrl, UUID, sent, idSent) } }).catch((e: unknown) => e);
    const hash = await until(async () => (await rowOf(sent))?.tx_hash, 'the settlement to be written ahead');
    await until(() => chainClients(chain).publicClient.getTransaction({ hash: hash as Hex }).catch(() => undefined), 'the node to hold the transaction');
    await killHard(gateway);
    assert.ok((await cut) instanceof Error, 'the caller got no answer');
    await rpc('evm_mine', []);
    await rpc('evm_setAutomine', [true]);

    // Restarted: the sent settlement is read from the chain; the caller's retry gets the result it paid for.
    gateway = await start();
    assert.deepEqual(await rowOf(sent), { state: 'settled', tx_hash: hash });
    const retry = await fetch(`${gateway.baseUrl}${UUID}`, { headers: { 'PAYMENT-SIGNATURE': await identified(gateway.baseUrl, UUID, sent, idSent) } });
    assert.equal(retry.status, 200, await retry.clone().text());
    // The ids the first run generated before its process died, not new ones.
    const { rows: [kept] } = await db.query<{ result: string }>('SELECT result FROM payments WHERE payer = $1', [sent.address.toLowerCase()]);
    assert.deepEqual(await retry.json(), JSON.parse(kept!.result));
    assert.equal(decodePaymentResponseHeader(retry.headers.get('payment-response')!).transaction, hash);

    // The first payer's retry runs anew now that its upstream answers, and pays once.
    upstream.on('/frankfurter/v1/latest', { headers: { 'content-type': 'application/json' }, body: fixture('upstream/frankfurter/latest-usd-eur-gbp.json') });
    const again = await fetch(`${gateway.baseUrl}${FX}`, { headers: { 'PAYMENT-SIGNATURE': await identified(gateway.baseUrl, FX, inHandler, idInHandler) } });
    assert.equal(again.status, 200, await again.clone().text());

    const { rows } = await db.query<{ state: string; n: number }>("SELECT state, COUNT(*)::int AS n FROM payments GROUP BY state ORDER BY state");
    assert.deepEqual(rows, [{ state: 'released', n: 1 }, { state: 'settled', n: 2 }], 'nothing left in flight');
    const paid = BigInt(await priceOf(gateway.baseUrl, UUID)) + BigInt(await priceOf(gateway.baseUrl, FX));
    assert.equal((await balanceOf(chain.payTo)) - payToBefore, paid, 'each settled once');
    await killHard(gateway);
  });

  test('SIGTERM: calls in flight finish and settle, new connections are refused, exit code 0', async () => {
    upstream.on('/frankfurter/v1/latest', { delayMs: 700, headers: { 'content-type': 'application/json' }, body: fixture('upstream/frankfurter/latest-usd-eur-gbp.json') });
    const gateway = await start();
    const payers = await Promise.all([0, 1, 2].map(() => fundedPayer(chain, '1')));
    const headers = await Promise.all(payers.map(async (payer) => paymentHeader(await signPayment(payer, readPaymentRequired(await fetch(`${gateway.baseUrl}${FX}`)).accepts[0]!))));
    const requestsBefore = upstream.requests.length;
    const calls = headers.map((header) => fetch(`${gateway.baseUrl}${FX}`, { headers: { 'PAYMENT-SIGNATURE': header } }));
    await until(async () => upstream.requests.length - requestsBefore >= 3, 'the three calls to be in their handlers');
    gateway.child.kill('SIGTERM');
    const answers = await Promise.all(calls);
    assert.deepEqual(answers.map((a) => a.status), [200, 200, 200]);
    assert.ok(answers.every((a) => decodePaymentResponseHeader(a.headers.get('payment-response')!).success));
    assert.equal(await gateway.exited, 0, gateway.output());
    assert.ok(await fetch(`${gateway.baseUrl}/health`).then(() => false, () => true), 'no longer accepting');
    for (const payer of payers) assert.equal((await rowOf(payer))?.state, 'settled');
  });
});

async function priceOf(baseUrl: string, path: string): Promise<string> {
  return readPaymentRequired(await fetch(`${baseUrl}${path}`)).accepts[0]!.amount;
}
