// Which channels the idle refunder picks, and that it believes a refund only by its Refunded event,
// one channel at a time. (Refunds with the real contracts: test/e2e/payment-channels.test.ts.)
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { pino } from 'pino';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { bareChannel, channelId } from '../../../../test/support/channel-records.ts';
import { chainClients } from '../../../../test/support/payments.ts';
import { devPrivateKey } from '../../../chain/dev-accounts.ts';
import { startDevChain } from '../../../chain/devchain.ts';
import type { DevChain } from '../../../chain/devchain.ts';
import { LocalClaimSenderLock } from '../../channels/claim-sender-lock.ts';
import { IdleRefunds, idleChannels } from './idle-refunds.ts';

const NOW = 1_767_225_600_000;
const DAY_MS = 86_400_000;

test('idle: no request for the idle time, none in flight, more deposited than charged', () => {
  const channels = [
    bareChannel(channelId(1), { lastRequestTimestamp: NOW - DAY_MS, balance: '1000', chargedCumulativeAmount: '400' }),
    bareChannel(channelId(2), { lastRequestTimestamp: NOW - DAY_MS + 1, balance: '1000', chargedCumulativeAmount: '400' }),
    bareChannel(channelId(3), { lastRequestTimestamp: NOW - 2 * DAY_MS, balance: '1000', chargedCumulativeAmount: '1000' }),
    bareChannel(channelId(4), { lastRequestTimestamp: NOW - 2 * DAY_MS, balance: '1000', chargedCumulativeAmount: '0', pendingRequest: { pendingId: 'p', signedMaxClaimable: '1', expiresAt: NOW + 1 } }),
    bareChannel(channelId(5), { lastRequestTimestamp: NOW - 2 * DAY_MS, balance: '1000', chargedCumulativeAmount: '0', pendingRequest: { pendingId: 'p', signedMaxClaimable: '1', expiresAt: NOW } }),
  ];
  assert.deepEqual(idleChannels(channels, NOW, DAY_MS).map((c) => c.channelId), [channelId(1), channelId(5)], 'a lapsed reservation does not count as in flight');
});

test('every tenth of the idle time, between 1 s and 1 h', () => {
  const every = (idleSeconds: number) => new IdleRefunds({ manager: { refund: async () => [] }, storage: { list: async () => [] }, receipts: undefined as never, receiptTimeoutMs: 1, idleSeconds, log: pino({ level: 'silent' }) }).intervalMs;
  assert.equal(every(2), 1_000);
  assert.equal(every(600), 60_000);
  assert.equal(every(7 * 86_400), 3_600_000);
  assert.throws(() => every(0), /above zero/);
});

let chain: DevChain;
before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
});
after(() => chain?.stop());

test('a refund without its Refunded event is a failure, and a failing channel does not hold back the next one', async () => {
  const { publicClient, walletFor } = chainClients(chain);
  // A real, successful transaction that is no refund: a plain ETH transfer.
  const hash: Hex = await walletFor(privateKeyToAccount(devPrivateKey('demoPayer'))).sendTransaction({ to: chain.payTo, value: 1n });
  const old = Date.now() - 10_000;
  const asked: string[] = [];
  const refunds = new IdleRefunds({
    manager: {
      refund: async (ids) => {
        const id = ids![0]!;
        asked.push(id);
        if (id === channelId(1)) throw new Error('Refund failed: invalid_batch_settlement_evm_refund_simulation_failed');
        return [{ channel: id, transaction: hash }];
      },
    },
    storage: { list: async () => [channelId(1), channelId(2)].map((id) => bareChannel(id, { lastRequestTimestamp: old })) },
    receipts: publicClient,
    receiptTimeoutMs: 5_000,
    idleSeconds: 1,
    log: pino({ level: 'silent' }),
  });
  const proven: string[] = [];
  const failed: string[] = [];
  refunds.onRefund = (event) => proven.push(event.channelId);
  refunds.onFailure = (id) => failed.push(id);
  const report = await refunds.refundIdle();
  assert.deepEqual(asked, [channelId(1), channelId(2)]);
  assert.deepEqual(report.refunded, []);
  assert.equal(report.failures.length, 2);
  assert.match(report.failures[0]!, /simulation_failed/);
  assert.match(report.failures[1]!, /no Refunded event/);
  assert.deepEqual(proven, []);
  assert.deepEqual(failed, [channelId(1), channelId(2)]);
});

test('while another holder sends claims, the pass does nothing', async () => {
  const lock = new LocalClaimSenderLock();
  let refunded = 0;
  const refunds = new IdleRefunds({
    manager: { refund: async () => (refunded++, []) },
    storage: { list: async () => [bareChannel(channelId(1), { lastRequestTimestamp: 0 })] },
    receipts: undefined as never, receiptTimeoutMs: 1, idleSeconds: 1, lock, log: pino({ level: 'silent' }),
  });
  let release!: () => void;
  const holder = lock.tryHold(() => new Promise<void>((resolve) => (release = resolve)));
  assert.deepEqual(await refunds.refundIdle(), { refunded: [], failures: [] });
  assert.equal(refunded, 0);
  release();
  await holder;
  await refunds.refundIdle();
  assert.equal(refunded, 1);
});
