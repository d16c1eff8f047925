// The channel settler key sends one transaction at a time: concurrent deposits and claims from one
// process, or from instances sharing the key through the advisory settler-key lock, each get a
// nonce of their own. Real anvil; the shared case on a real PostgreSQL.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainClients } from '../../../../test/support/payments.ts';
import { useSqlStores } from '../../../../test/support/sql-stores.ts';
import { devPrivateKey } from '../../../chain/dev-accounts.ts';
import { startDevChain } from '../../../chain/devchain.ts';
import type { DevChain } from '../../../chain/devchain.ts';
import { fiatTokenAbi, localChain } from '../../../chain/fiat-token.ts';
import { AdvisorySettlerKeyLock } from '../../settlement/settler-key-lock.ts';
import type { SettlerKeyLock } from '../../settlement/settler-key-lock.ts';
import { channelFacilitatorSigner } from './channel-facilitator.ts';

const settler = privateKeyToAccount(devPrivateKey('channelSettler'));
let chain: DevChain;
before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
});
after(() => chain?.stop());

const signer = (keyLock?: SettlerKeyLock) =>
  channelFacilitatorSigner({ chain: localChain(chain.chainId, chain.rpcUrl), rpcUrl: chain.rpcUrl, pollingIntervalMs: 20 }, settler, keyLock);

/** `count` approvals sent at once through the signers in turn; every one must be mined, each with its own nonce. */
async function sendTogether(signers: ReturnType<typeof signer>[], count: number): Promise<void> {
  const { publicClient } = chainClients(chain);
  const hashes = await Promise.all(Array.from({ length: count }, (_, i) =>
    signers[i % signers.length]!.writeContract({ address: chain.usdc, abi: fiatTokenAbi() as never, functionName: 'approve', args: [chain.payTo, BigInt(i + 1)] }),
  ));
  const receipts = await Promise.all(hashes.map((hash) => publicClient.waitForTransactionReceipt({ hash: hash as Hex })));
  assert.ok(receipts.every((r) => r.status === 'success'));
  const nonces = await Promise.all(hashes.map(async (hash) => (await publicClient.getTransaction({ hash: hash as Hex })).nonce));
  assert.equal(new Set(nonces).size, count, 'one nonce each');
}

test('six writes at once from one process: all sent, none refused for its nonce (without the queue: 5 of 6 refused)', async () => {
  await sendTogether([signer()], 6);
});

for (const store of useSqlStores()) {
  if (!store.openPair) continue;
  const openPair = store.openPair.bind(store);
  test('two instances sharing the key on one PostgreSQL, three writes each at once: all sent', async () => {
    const [a, b] = await openPair();
    try {
      await sendTogether([signer(new AdvisorySettlerKeyLock(a)), signer(new AdvisorySettlerKeyLock(b))], 6);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
}
