// The chain client against a real EVM (anvil): viem's actions go through the upstream layer, reads
// pinned to a block are cached, a revert reaches the tool as viem's revert error, and a node that
// fails becomes a clear, uncharged upstream error.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeFunctionData, parseAbi } from 'viem';
import { multicall3CreationCode } from '../../../test/support/base-world/chain-tools.ts';
import { startAnvil, type RunningAnvil } from '../../chain/anvil.ts';
import { rawFetch } from '../http/raw-fetch.ts';
import type { RawRequest, RawResponse } from '../http/http-types.ts';

type RawFetch = (request: RawRequest) => Promise<RawResponse>;
import { baseRpc } from '../providers/base-rpc.ts';
import { UpstreamError } from '../upstream-errors.ts';
import { Upstream } from '../upstream.ts';
import { chainClient, readChain } from './chain-client.ts';

let anvil: RunningAnvil;


async function anvilRpc(method: string, params: readonly unknown[]): Promise<unknown> {
  const response = await fetch(anvil.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) });
  return ((await response.json()) as { result: unknown }).result;
}

before(async () => {
  anvil = await startAnvil({ chainId: 8453 });
  // viem batches reads through Multicall3 at its canonical address, as on Base.
  const runtime = await anvilRpc('eth_call', [{ data: multicall3CreationCode() }]);
  await anvilRpc('anvil_setCode', ['0xcA11bde05977b3631167028862bE2a173976CA11', runtime]);
});
after(() => anvil.stop());

function clientFor(rpcUrl: string, fetcher: RawFetch = rawFetch) {
  const upstream = new Upstream([baseRpc], { userAgent: 'toolgate-test', baseUrls: { baseRpc: rpcUrl }, apiKeys: {} }, fetcher);
  return chainClient(upstream.forCall(Date.now() + 10_000), 'mainnet', new AbortController().signal);
}

describe('the chain client', () => {
  test('reads the head block and a balance at it through the upstream layer', async () => {
    const chain = clientFor(anvil.rpcUrl);
    const block = await readChain(chain, (c) => c.getBlock());
    const balance = await readChain(chain, (c) => c.getBalance({ address: '0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266', blockNumber: block.number }));
    assert.equal(balance, 10_000n * 10n ** 18n);
  });

  test('reads pinned to a block number are asked once; "latest" reads every time', async () => {
    const bodies: string[] = [];
    const counting: RawFetch = (request) => {
      bodies.push(String(request.body));
      return rawFetch(request);
    };
    const chain = clientFor(anvil.rpcUrl, counting);
    const address = '0x70997970C51812dc3A010C7d01b50e0d17dc79C8' as const;
    await readChain(chain, (c) => c.getBalance({ address, blockNumber: 0n }));
    await readChain(chain, (c) => c.getBalance({ address, blockNumber: 0n }));
    await readChain(chain, (c) => c.getBalance({ address }));
    await readChain(chain, (c) => c.getBalance({ address }));
    assert.equal(bodies.length, 3, bodies.join('\n'));
  });

  test('a call that reverts reaches the tool as a revert, not as a provider failure', async () => {
    const chain = clientFor(anvil.rpcUrl);
    // A contract whose code is a bare REVERT with no data: PUSH0 PUSH0 REVERT.
    await anvilRpc('anvil_setCode', ['0x00000000000000000000000000000000000000aa', '0x5f5ffd']);
    const error = await readChain(chain, (c) =>
      c.call({ to: '0x00000000000000000000000000000000000000aa', data: encodeFunctionData({ abi: parseAbi(['function name() view returns (string)']), functionName: 'name' }) }),
    ).then(
      () => assert.fail('expected a revert'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof UpstreamError);
    assert.equal(error.status, 502);
    assert.match(error.message, /Base RPC: it refused a read .*revert/i);
  });

  test('a node that cannot be reached is a 503 naming the provider', async () => {
    const chain = clientFor('http://127.0.0.1:9');
    const error = await readChain(chain, (c) => c.getBlockNumber()).then(
      () => assert.fail('expected a failure'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof UpstreamError);
    assert.equal(error.status, 503);
    assert.match(error.message, /^Base RPC: /);
  });
});
