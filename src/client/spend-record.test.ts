import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, test } from 'node:test';
import type { GatewayTool } from './gateway-tools.ts';
import { SpendLimits } from './spend-limits.ts';
import { SpendRecord } from './spend-record.ts';

const dirs: string[] = [];
after(() => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));
async function freshRecord(now?: () => Date): Promise<SpendRecord> {
  const dir = await mkdtemp(join(tmpdir(), 'toolgate-spend-'));
  dirs.push(dir);
  return new SpendRecord(join(dir, 'spend.json'), now);
}
const request = (amount: bigint, network = 'eip155:8453') => ({ network, tool: 't', payer: '0xabc', amount });

test('reserve within the daily limit; released amounts are free again; spent and unknown ones stay counted', async () => {
  const record = await freshRecord();
  const a = await record.reserve(request(400n), 1000n);
  const b = await record.reserve(request(400n), 1000n);
  assert.ok('id' in a && 'id' in b);
  assert.deepEqual(await record.reserve(request(400n), 1000n), { refused: true, spent: 800n });
  await record.release(a.id);
  const c = await record.reserve(request(400n), 1000n);
  assert.ok('id' in c);
  await record.settle(b.id, 'spent', '0xfeed');
  await record.settle(c.id, 'unknown');
  assert.equal(await record.spentToday('eip155:8453'), 800n);
  assert.deepEqual(await record.reserve(request(300n), 1000n), { refused: true, spent: 800n });
  // Another network has its own total; no limit means always reserved, still recorded.
  assert.ok('id' in (await record.reserve(request(900n, 'eip155:84532'), 1000n)));
  assert.ok('id' in (await record.reserve(request(5000n), undefined)));
  const states = (await record.entries()).map((e) => [e.amount, e.state, e.transaction ?? null]);
  assert.deepEqual(states, [['400', 'spent', '0xfeed'], ['400', 'unknown', null], ['900', 'reserved', null], ['5000', 'reserved', null]]);
});

test('a new UTC day starts at zero; entries older than 31 days are dropped when the file is next written', async () => {
  let now = new Date('2026-03-01T23:59:00Z');
  const record = await freshRecord(() => now);
  assert.ok('id' in (await record.reserve(request(900n), 1000n)));
  now = new Date('2026-03-02T00:01:00Z');
  assert.equal(await record.spentToday('eip155:8453'), 0n);
  assert.ok('id' in (await record.reserve(request(900n), 1000n)));
  now = new Date('2026-04-15T00:00:00Z');
  await record.reserve(request(1n), undefined);
  assert.deepEqual((await record.entries()).map((e) => e.day), ['2026-04-15']);
});

test('fifty reservations at once against a limit of ten: exactly ten are granted', async () => {
  const record = await freshRecord();
  const results = await Promise.all(Array.from({ length: 50 }, () => record.reserve(request(100n), 1000n)));
  assert.equal(results.filter((r) => 'id' in r).length, 10);
  assert.equal(await record.spentToday('eip155:8453'), 1000n);
});

test('a lock left by a dead process is broken; a damaged file is an error that says what to do', async () => {
  const record = await freshRecord();
  await writeFile(`${record.path}.lock`, '999999999'); // no such pid
  assert.ok('id' in (await record.reserve(request(1n), undefined)));
  const dir = join(record.path, '..');
  assert.deepEqual((await readdir(dir)).sort(), ['spend.json']);
  await writeFile(record.path, '{"version":1,"entries":');
  await assert.rejects(record.reserve(request(1n), undefined), /the spend record .*spend\.json is damaged .*move it away/);
});

test('a channel deposit counts once, vouchers add nothing, a refund gives the unspent part back to the day of the deposit (and to the session)', async () => {
  let now = new Date('2026-03-01T10:00:00Z');
  const record = await freshRecord(() => now);
  const limits = new SpendLimits({ record, dailyBudget: 1_000n, sessionBudget: 1_000n });
  const tool = { name: 't', network: 'eip155:8453', atomicPrice: 10n } as GatewayTool;
  const channel = '0xC0FFEE';
  const deposit = await limits.reserveDeposit(tool, 800n, '0xabc', channel);
  await deposit.confirm('0xdeposit');
  for (let call = 1n; call <= 3n; call++) await limits.voucher(tool, 10n, '0xabc', channel.toLowerCase());
  assert.equal(await record.spentToday(tool.network), 800n, 'the deposit, not the vouchers');
  assert.equal(limits.sessionSpent, 800n);
  await assert.rejects(limits.reserveDeposit(tool, 300n, '0xabc', '0xother'), /refused, nothing signed: t costs 0\.0003 USDC; 0\.0008 of the session budget/);

  now = new Date('2026-03-02T10:00:00Z');
  assert.equal(await record.spentToday(tool.network), 0n, 'a new day');
  assert.equal(await limits.refunded(channel, 770n), 770n);
  assert.equal(limits.sessionSpent, 30n, 'the session gets the refund back');
  const [depositEntry, ...vouchers] = await record.entries();
  assert.deepEqual([depositEntry?.day, depositEntry?.amount, depositEntry?.channel], ['2026-03-01', '30', { id: channel.toLowerCase(), kind: 'deposit', refunded: '770' }]);
  assert.deepEqual(vouchers.map((v) => [v.amount, v.channel?.kind, v.channel?.charged]), [['0', 'voucher', '10'], ['0', 'voucher', '10'], ['0', 'voucher', '10']]);
  assert.equal(await limits.refunded(channel, 100n), 30n, 'never more back than the deposit entries hold');
});
