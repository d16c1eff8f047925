import assert from 'node:assert/strict';
import { test } from 'node:test';
import { pino } from 'pino';
import type { Channel } from '@x402/evm/batch-settlement/server';
import { bareChannel, channelId } from '../../../../test/support/channel-records.ts';
import { ChannelCollector } from './channel-collector.ts';
import { dueForClaim } from './claim-policy.ts';

const policy = { minUnclaimed: 50_000n, maxIdleMs: 6 * 3_600_000 };
const now = 1_767_225_600_000;
const owing = (n: number, owed: bigint, overrides: Partial<Channel> = {}) =>
  bareChannel(channelId(n), { chargedCumulativeAmount: (10_000n + owed).toString(), totalClaimed: '10000', lastRequestTimestamp: now - 60_000, ...overrides });

test('a channel is due once it owes the minimum, goes quiet, or its payer withdraws; never when it owes nothing', () => {
  assert.equal(dueForClaim(owing(1, 49_999n), policy, now), false, 'an active channel owing less than the minimum waits');
  assert.equal(dueForClaim(owing(2, 50_000n), policy, now), true, 'owing the minimum');
  assert.equal(dueForClaim(owing(3, 1_000n, { lastRequestTimestamp: now - policy.maxIdleMs }), policy, now), true, 'quiet for the idle time: one call is claimed too');
  assert.equal(dueForClaim(owing(4, 1_000n, { withdrawRequestedAt: 1_767_225_000 }), policy, now), true, 'its payer started a withdrawal');
  assert.equal(dueForClaim(owing(5, 0n, { withdrawRequestedAt: 1_767_225_000, lastRequestTimestamp: 0 }), policy, now), false, 'nothing owed, nothing to claim');
  assert.equal(dueForClaim(owing(6, 1n), { minUnclaimed: 0n, maxIdleMs: policy.maxIdleMs }, now), true, 'a minimum of 0: every channel owing anything');
});

test("the interval's pass claims only the due channels; collect() (shutdown, the watcher) claims every channel owing anything", async () => {
  const channels = [owing(1, 1_000n), owing(2, 60_000n), owing(3, 1_000n, { lastRequestTimestamp: 0 }), owing(4, 0n)];
  const selected: string[][] = [];
  const collector = new ChannelCollector({
    manager: {
      claim: async (options) => {
        const chosen = options?.selectClaimChannels ? await options.selectClaimChannels(channels, { now, lastClaimTime: 0, lastSettleTime: 0, pendingSettle: false }) : channels;
        selected.push(chosen.map((c) => c.channelId));
        return [];
      },
      settle: async () => ({ transaction: '0x' }),
    },
    receipts: { waitForTransactionReceipt: () => Promise.reject(new Error('no transaction is sent')) },
    intervalMs: 60_000,
    policy,
    receiptTimeoutMs: 1_000,
    log: pino({ level: 'silent' }),
  });
  await collector.collectDue(now);
  await collector.collect();
  // (The SDK's manager offers the select only channels charged past their claimed total; this one offers all.)
  assert.deepEqual(selected, [[channelId(2), channelId(3)], [channelId(1), channelId(2), channelId(3), channelId(4)]]);
});
