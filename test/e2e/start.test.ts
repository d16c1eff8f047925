// `npm start` as a user runs it: no configuration -> a local chain, devchain.json, a healthy server;
// a bad configuration -> a clear message and a non-zero exit.
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { BATCH_SETTLEMENT_ADDRESSES } from '../../src/chain/batch-settlement-contracts.ts';
import { runGateway as run } from '../support/gateway-process.ts';

async function rpcCall(rpcUrl: string, method: string, params: unknown[]): Promise<unknown> {
  const response = await fetch(rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await response.json()) as { result?: unknown }).result;
}

test('with no configuration it serves the local network and writes devchain.json', async () => {
  const dataDir = await mkdtemp(join(tmpdir(), 'toolgate-start-'));
  const server = run({ PORT: '0', TOOLGATE_DATA_DIR: dataDir, TOOLGATE_LOG_LEVEL: 'warn' });
  try {
    const [, address] = await server.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
    await server.waitFor(/devchain\.json written to/);
    const devChain = JSON.parse(await readFile(join(dataDir, 'devchain.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(devChain).sort(), ['batchSettlement', 'chainId', 'network', 'payTo', 'payer', 'rpcUrl', 'tokenName', 'usdc']);
    assert.deepEqual(Object.keys(devChain.payer as object).sort(), ['address', 'privateKey']);
    assert.deepEqual(devChain.batchSettlement, BATCH_SETTLEMENT_ADDRESSES);
    for (const address of Object.values(BATCH_SETTLEMENT_ADDRESSES)) {
      const code = await rpcCall(devChain.rpcUrl as string, 'eth_getCode', [address, 'latest']);
      assert.ok(typeof code === 'string' && code.length > 2, `payment-channel contract deployed at ${address}`);
    }
    assert.equal(devChain.network, 'eip155:31337');
    assert.match(server.output(), new RegExp(`demo payer +${(devChain.payer as { address: string }).address} holds 1000 USDC`));

    const health = await fetch(`${address}/health`);
    assert.equal(health.status, 200);
    assert.equal(((await health.json()) as { network: { usdc: string } }).network.usdc, devChain.usdc);

    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
    const rpc = await fetch(devChain.rpcUrl as string, { method: 'POST', body: '{}' }).then(() => 'up', () => 'down');
    assert.equal(rpc, 'down', 'the local chain stops with the server');
  } finally {
    server.child.kill('SIGKILL');
    await rm(dataDir, { recursive: true, force: true });
  }
});

test('a bad configuration stops the start with a message naming the variable', async () => {
  const server = run({ TOOLGATE_NETWORK: 'base', TOOLGATE_PAY_TO: 'nope' });
  assert.equal(await server.exited, 2);
  assert.match(server.output(), /TOOLGATE_PAY_TO: expected a 0x-prefixed 20-byte hex address \(got "nope"\)/);
});
