// Channel records for the channel tests: every field set, amounts beyond 2^64 so a lossy path shows.
import type { Channel } from '@x402/evm/batch-settlement/server';

export const NETWORK = 'eip155:8453';

/** uint128's maximum: the contract's voucher and balance type. */
export const UINT128_MAX = (2n ** 128n - 1n).toString();

export function channelId(n: number): string {
  return `0x${n.toString(16).padStart(64, '0')}`;
}

export function fullChannel(id: string, overrides: Partial<Channel> = {}): Channel {
  return {
    channelId: id,
    channelConfig: {
      payer: '0xAbC0000000000000000000000000000000000001',
      payerAuthorizer: '0xAbC0000000000000000000000000000000000002',
      receiver: '0xDeF0000000000000000000000000000000000003',
      receiverAuthorizer: '0xDeF0000000000000000000000000000000000004',
      token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
      withdrawDelay: 86_400,
      salt: '0x00000000000000000000000000000000000000000000000000000000000000a5',
    },
    chargedCumulativeAmount: '340282366920938463463374607431768211000',
    signedMaxClaimable: '340282366920938463463374607431768211100',
    signature: `0x${'ab'.repeat(65)}`,
    balance: UINT128_MAX,
    totalClaimed: '18446744073709551617',
    withdrawRequestedAt: 1_767_225_600,
    refundNonce: 7,
    onchainSyncedAt: 1_767_225_600_123,
    lastRequestTimestamp: 1_767_225_601_456,
    pendingRequest: { pendingId: 'pending-1', signedMaxClaimable: '340282366920938463463374607431768211200', expiresAt: 1_767_225_661_456 },
    ...overrides,
  };
}

/** The least record: no optional field, nothing withdrawn or claimed. */
export function bareChannel(id: string, overrides: Partial<Channel> = {}): Channel {
  const { onchainSyncedAt: _synced, pendingRequest: _pending, ...rest } = fullChannel(id, {
    chargedCumulativeAmount: '0',
    signedMaxClaimable: '0',
    balance: '1000000',
    totalClaimed: '0',
    withdrawRequestedAt: 0,
    refundNonce: 0,
  });
  return { ...rest, ...overrides };
}
