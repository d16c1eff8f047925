import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import test from 'node:test';
import { initialiseDataDir, openPgliteClient } from './pglite-client.ts';

test('a new data directory is initialised by a child process, and what is written there outlives the client', async (t) => {
  const dir = await mkdtemp(join(tmpdir(), 'toolgate-pglite-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  const dataDir = join(dir, 'ledger');

  const before = process.memoryUsage().rss;
  await initialiseDataDir(dataDir);
  assert.ok(existsSync(join(dataDir, 'PG_VERSION')), 'a cluster is there');
  // initdb in this process would grow it by several hundred MB; the child's memory is its own.
  assert.ok(process.memoryUsage().rss - before < 100 * 1024 * 1024, 'initdb ran outside this process');

  const first = await openPgliteClient(dataDir);
  await first.exec('CREATE TABLE kept (value text)');
  await first.query('INSERT INTO kept VALUES ($1)', ['still here']);
  await first.close();

  await initialiseDataDir(dataDir); // an existing cluster is left as it is
  const second = await openPgliteClient(dataDir);
  t.after(() => second.close());
  assert.deepEqual((await second.query<{ value: string }>('SELECT value FROM kept')).rows, [{ value: 'still here' }]);
});
