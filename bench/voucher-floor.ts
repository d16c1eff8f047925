// The parts of a voucher's server work, each timed alone in the bench process on the same machine
// and in the same run as the loads: the signature recovery the SDK's local voucher check does
// (viem's pure-JS recoverAddress) against the native one the gateway uses for `exact`, and the
// channel storage's read and update on a PGlite ledger on disk, configured as the gateway's.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Channel } from '@x402/evm/batch-settlement/server';
import { hashTypedData, recoverAddress, type Hex } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { SqlChannelStorage } from '../src/payments/channels/sql-channel-storage.ts';
import { recoverSigner, recoveryBackend } from '../src/payments/facilitator/secp256k1-recovery.ts';
import { openPgliteClient } from '../src/payments/ledger/pglite-client.ts';
import { stats, type Stats } from './latency-stats.ts';

export interface VoucherFloor {
  /** viem's recoverAddress over a voucher digest: what the SDK's server scheme calls per voucher. */
  recoverJs: Stats;
  /** libsecp256k1 through the gateway's recoverSigner (`exact`'s path). */
  recoverNative: Stats & { backend: string };
  /** SqlChannelStorage on PGlite on disk: the SDK reads the record once and updates it twice per voucher. */
  storageGet: Stats;
  storageUpdate: Stats;
}

async function timed(times: number, work: (i: number) => Promise<unknown>): Promise<Stats> {
  const samples: number[] = [];
  for (let i = 0; i < times; i++) {
    const t0 = performance.now();
    await work(i);
    samples.push(performance.now() - t0);
  }
  return stats(samples);
}

const VOUCHER_TYPES = { Voucher: [{ name: 'channelId', type: 'bytes32' }, { name: 'maxClaimableAmount', type: 'uint128' }] } as const;

export async function measureVoucherFloor(times = 300): Promise<VoucherFloor> {
  const account = privateKeyToAccount(generatePrivateKey());
  const channelId = `0x${'12'.repeat(32)}` as Hex;
  const domain = { name: 'x402 Batch Settlement', version: '1', chainId: 31337, verifyingContract: '0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003' } as const;
  const digests = Array.from({ length: 20 }, (_, i) => hashTypedData({ domain, types: VOUCHER_TYPES, primaryType: 'Voucher', message: { channelId, maxClaimableAmount: BigInt(i + 1) * 1000n } }));
  const signatures = await Promise.all(digests.map((hash) => account.sign({ hash })));
  const pick = (i: number) => ({ hash: digests[i % 20] as Hex, signature: signatures[i % 20] as Hex });
  await timed(20, (i) => recoverAddress(pick(i)));
  const recoverJs = await timed(times, (i) => recoverAddress(pick(i)));
  const recoverNative = { ...(await timed(times, (i) => recoverSigner(pick(i).hash, pick(i).signature))), backend: recoveryBackend };

  const dir = await mkdtemp(join(tmpdir(), 'toolgate-bench-floor-'));
  const db = await openPgliteClient(dir);
  try {
    const storage = await SqlChannelStorage.open(db, { network: 'eip155:31337' });
    const address = account.address;
    const record: Channel = {
      channelId, channelConfig: { payer: address, payerAuthorizer: address, receiver: address, receiverAuthorizer: address, token: address, withdrawDelay: 86_400, salt: `0x${'00'.repeat(32)}` },
      chargedCumulativeAmount: '0', signedMaxClaimable: '0', signature: signatures[0] as Hex, balance: '1000000', totalClaimed: '0',
      withdrawRequestedAt: 0, refundNonce: 0, lastRequestTimestamp: 0,
    } as Channel;
    await storage.updateChannel(channelId, () => record);
    const storageGet = await timed(times, () => storage.get(channelId));
    const storageUpdate = await timed(times, (i) => storage.updateChannel(channelId, (current) => ({ ...(current as Channel), chargedCumulativeAmount: String((i + 1) * 1000) })));
    return { recoverJs, recoverNative, storageGet, storageUpdate };
  } finally {
    await db.close();
    await rm(dir, { recursive: true, force: true });
  }
}
