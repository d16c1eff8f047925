// The collector believes a claim or a settle only by its event in the receipt, not by the
// facilitator's word: a transaction that went through without a Claimed event is a failure,
// counted and logged, and nothing is settled on its strength. (The success path, with the real
// contracts, is in test/e2e/payment-channels.test.ts.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { pino } from 'pino';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { chainClients } from '../../../../test/support/payments.ts';
import { devPrivateKey } from '../../../chain/dev-accounts.ts';
import { startDevChain } from '../../../chain/devchain.ts';
import type { DevChain } from '../../../chain/devchain.ts';
import { ChannelCollector } from './channel-collector.ts';

let chain: DevChain;
before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
});
after(() => chain?.stop());

test('a claim whose receipt has no Claimed event is a failure, and no settle follows it', async () => {
  const { publicClient, walletFor } = chainClients(chain);
  // A real, successful transaction that is no claim: a plain ETH transfer.
  const hash: Hex = await walletFor(privateKeyToAccount(devPrivateKey('demoPayer'))).sendTransaction({ to: chain.payTo, value: 1n });
  let settles = 0;
  const collector = new ChannelCollector({
    manager: {
      claim: async () => [{ vouchers: 3, transaction: hash }],
      settle: async () => {
        settles += 1;
        return { transaction: hash };
      },
    },
    receipts: publicClient,
    intervalMs: 60_000,
    receiptTimeoutMs: 5_000,
    log: pino({ level: 'silent' }),
  });
  const report = await collector.collect();
  assert.deepEqual(report.failures, [`claim ${hash}: no Claimed event`]);
  assert.equal(report.claimed, 0n);
  assert.equal(report.claimedVouchers, 0);
  assert.equal(settles, 0, 'nothing was proven claimed: nothing to settle');
  assert.equal(collector.failures, 1);
});

test('a pass that claims nothing sends no settle (its gas would buy nothing)', async () => {
  const { publicClient } = chainClients(chain);
  let settles = 0;
  const collector = new ChannelCollector({
    manager: {
      claim: async () => [],
      settle: async () => {
        settles += 1;
        return { transaction: '0x' };
      },
    },
    receipts: publicClient,
    intervalMs: 60_000,
    receiptTimeoutMs: 5_000,
    log: pino({ level: 'silent' }),
  });
  const report = await collector.collect();
  assert.deepEqual(report.failures, []);
  assert.equal(settles, 0);
  assert.equal(collector.failures, 0);
});
