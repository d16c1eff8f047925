import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkHealth } from './health.ts';
import type { PaymentLedger } from './payments/ledger/payment-ledger.ts';
import { publicNetwork } from './payments/networks.ts';

const secretUrl = 'https://base-mainnet.example/v2/SECRET-API-KEY';

function sources(blockNumber: () => Promise<bigint>, problems: unknown[] = []) {
  // Only ping() is probed; the rest of the ledger is never touched by checkHealth.
  const ledger = { ping: async () => undefined } as unknown as PaymentLedger;
  return {
    version: '0.0.0', network: publicNetwork('base'), payTo: '0x0000000000000000000000000000000000000001',
    facilitator: 'embedded', ledger, blockNumber, onProblem: (_component: string, error: unknown) => problems.push(error),
  };
}

test('a reachable chain and ledger report ok with the block number', async () => {
  const report = await checkHealth(sources(async () => 42n));
  assert.equal(report.status, 'ok');
  assert.deepEqual(report.chain, { reachable: true, blockNumber: '42' });
});

test('a failing RPC is degraded, and its error text (which may carry a keyed URL) stays in the log', async () => {
  const problems: unknown[] = [];
  const report = await checkHealth(sources(async () => { throw new Error(`HTTP request failed. URL: ${secretUrl}`); }, problems));
  assert.equal(report.status, 'degraded');
  assert.equal(report.chain.reachable, false);
  assert.doesNotMatch(JSON.stringify(report), /SECRET-API-KEY/);
  assert.match(report.chain.error ?? '', /server log/);
  assert.equal(problems.length, 1);
  assert.match(String(problems[0]), /SECRET-API-KEY/);
});
