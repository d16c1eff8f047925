// kill -9 of a real gateway process holding accepted vouchers that nothing has claimed yet (issue
// 23, point 5): the ledger is the embedded store on disk (PGlite in the data dir), the chain an
// anvil that outlives the process. The official client pays; the claim interval is an hour, so
// nothing is claimed before the kill. After the restart the collector claims every voucher
// accepted before it, and the channel a call cut off mid-handler had reserved is free at once.
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, test } from 'node:test';
import type { DevChain } from '../../src/chain/devchain.ts';
import { startDevChain, writeDevChainFile } from '../../src/chain/devchain.ts';
import { channelPayer, channelPayload, claimedSince } from '../support/channel-payer.ts';
import { until } from '../support/until.ts';
import { startFixtureServer } from '../support/fixture-server.ts';
import type { FixtureServer } from '../support/fixture-server.ts';
import { startGatewayProcess } from '../support/gateway-process.ts';
import type { GatewayProcess } from '../support/gateway-process.ts';
import { chainClients, fundedPayer, readPaymentRequired } from '../support/payments.ts';

const UUID = '/api/tools/uuid';
const FX = '/api/finance/fx?from=USD&to=EUR,GBP';
const CALLS = 12;

let chain: DevChain;
let upstream: FixtureServer;
let dataDir: string;
let env: Record<string, string>;
const running: GatewayProcess[] = [];

before(async () => {
  [chain, upstream] = await Promise.all([startDevChain({ tokenName: 'USD Coin' }), startFixtureServer()]);
  dataDir = await mkdtemp(join(tmpdir(), 'toolgate-channel-crash-'));
  env = {
    TOOLGATE_DATA_DIR: dataDir, // the ledger: PGlite in <dataDir>/ledger
    TOOLGATE_LOCAL_CHAIN_FILE: await writeDevChainFile(join(dataDir, 'chain'), chain),
    TOOLGATE_INSTANCE_ID: 'channel-crash',
    TOOLGATE_FRANKFURTER_URL: `${upstream.origin}/frankfurter`,
    TOOLGATE_CHANNEL_CLAIM_INTERVAL_S: '3600',
    TOOLGATE_LOG_LEVEL: 'warn',
  };
});
after(async () => {
  for (const p of running) p.child.kill('SIGKILL');
  await Promise.all([chain?.stop(), upstream?.close()]);
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

async function start(extra: Record<string, string> = {}) {
  const gateway = await startGatewayProcess({ ...env, ...extra });
  running.push(gateway);
  return gateway;
}

async function channelPrice(baseUrl: string, path: string): Promise<bigint> {
  const offer = readPaymentRequired(await fetch(`${baseUrl}${path}`)).accepts.find((a) => a.scheme === 'batch-settlement');
  assert.ok(offer, 'channels offered');
  return BigInt(offer.amount);
}

test('kill -9 with accepted vouchers unclaimed and a call in its handler: the restart claims exactly the accepted ones and frees the channel at once', async (context) => {
  const { balanceOf, publicClient } = chainClients(chain);
  const fromBlock = await publicClient.getBlockNumber();
  const payToStart = await balanceOf(chain.payTo);
  let gateway = await start();
  const price = await channelPrice(gateway.baseUrl, UUID);
  const payer = await fundedPayer(chain, '1');
  const { pay, sent } = channelPayer(chain, payer);
  for (let call = 1; call <= CALLS; call++) assert.equal((await pay(`${gateway.baseUrl}${UUID}`)).status, 200, `call ${call}`);
  const channelId = channelPayload(sent[0]!.payload).voucher.channelId;
  assert.equal(channelPayload(sent.at(-1)!.payload).voucher.maxClaimableAmount, (price * BigInt(CALLS)).toString());

  // A last call whose voucher is accepted and whose handler never returns (its upstream hangs).
  upstream.on('/frankfurter/v1/latest', { delayMs: 60_000, body: '' });
  const cut = pay(`${gateway.baseUrl}${FX}`).catch((error: unknown) => error);
  await until(async () => upstream.requests.some((r) => r.path === '/frankfurter/v1/latest'), 'the cut call to be in its handler');
  gateway.child.kill('SIGKILL');
  await gateway.exited;
  assert.ok((await cut) instanceof Error, 'the cut call got no answer');
  assert.deepEqual(await claimedSince(chain, fromBlock), [], 'nothing was claimed before the kill');
  assert.equal(await balanceOf(chain.payTo), payToStart);

  // Restarted on the same data dir, now claiming every second, whatever a channel owes.
  gateway = await start({ TOOLGATE_CHANNEL_CLAIM_INTERVAL_S: '1', TOOLGATE_CHANNEL_CLAIM_MIN_USDC: '0' });
  const restartedAt = Date.now();
  await until(async () => (await claimedSince(chain, fromBlock)).length > 0, 'the restarted collector to claim', 20_000);
  context.diagnostic(`first claim ${Date.now() - restartedAt} ms after the restart`);
  const claims = await claimedSince(chain, fromBlock);
  assert.deepEqual(claims.map((c) => [c.channelId, c.claimAmount]), [[channelId, price * BigInt(CALLS)]], 'exactly the vouchers accepted before the kill, the cut call not among them');
  await until(async () => (await balanceOf(chain.payTo)) === payToStart + price * BigInt(CALLS), 'payTo to receive the claimed sum');

  // The payer goes on at once: its channel is not held by the cut call's reservation for
  // maxTimeoutSeconds. On the embedded store a voucher's reservation lives in the process's memory,
  // so the kill took it along; one the SDK's path wrote in the record (a deposit's, say) is released
  // at start (sql-channel-storage.test.ts, releaseOrphanedReservations).
  const next = await pay(`${gateway.baseUrl}${UUID}`);
  assert.equal(next.status, 200, await next.clone().text());
  assert.equal(channelPayload(sent.at(-1)!.payload).voucher.maxClaimableAmount, (price * BigInt(CALLS + 1)).toString(), 'the cut call was not charged');
  await until(async () => (await balanceOf(chain.payTo)) === payToStart + price * BigInt(CALLS + 1), 'the next voucher claimed too');

  gateway.child.kill('SIGTERM');
  assert.equal(await gateway.exited, 0, gateway.output());
  assert.equal(await balanceOf(chain.payTo), payToStart + price * BigInt(CALLS + 1), 'nothing claimed twice');
});
