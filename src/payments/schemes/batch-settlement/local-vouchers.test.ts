import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { x402ResourceServer } from '@x402/core/server';
import type { FacilitatorClient } from '@x402/core/server';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { voucherTypes } from '@x402/evm';
import { computeChannelId } from '@x402/evm/batch-settlement/client';
import { BatchSettlementEvmScheme as ServerScheme } from '@x402/evm/batch-settlement/server';
import type { Channel } from '@x402/evm/batch-settlement/server';
import { hashTypedData } from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { malleateSignature } from '../../facilitator/signature.ts';
import { SqlChannelStorage } from '../../channels/sql-channel-storage.ts';
import type { SqlClient } from '../../ledger/sql-client.ts';
import { useSqlStores } from '../../../../test/support/sql-stores.ts';
import { LocalVouchers } from './local-vouchers.ts';
import type { LocalReservation, LocalVoucherDecision, VoucherPayload } from './local-vouchers.ts';
import { voucherDigest, voucherDomain } from './voucher-signature.ts';

const NETWORK = 'eip155:8453';
const CHAIN_ID = 8453;
const USDC: Hex = '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913';
const PRICE = 1_000n;
const payerAuthorizer = privateKeyToAccount(`0x${'11'.repeat(32)}`);
const stranger = privateKeyToAccount(`0x${'22'.repeat(32)}`);
const receiverAuthorizer = privateKeyToAccount(`0x${'33'.repeat(32)}`);
const PAY_TO: Hex = '0x00000000000000000000000000000000000a11ce';

const requirements: PaymentRequirements = {
  scheme: 'batch-settlement', network: NETWORK, amount: PRICE.toString(), asset: USDC, payTo: PAY_TO, maxTimeoutSeconds: 60,
  extra: { name: 'USD Coin', version: '2', receiverAuthorizer: receiverAuthorizer.address, withdrawDelay: 86_400 },
};

let salts = 0;
function channelConfig() {
  return {
    payer: '0x000000000000000000000000000000000000beef' as Hex, payerAuthorizer: payerAuthorizer.address, receiver: PAY_TO,
    receiverAuthorizer: receiverAuthorizer.address, token: USDC, withdrawDelay: 86_400, salt: `0x${(++salts).toString(16).padStart(64, '0')}` as Hex,
  };
}

async function voucherPayload(config: ReturnType<typeof channelConfig>, cumulative: bigint, signer = payerAuthorizer): Promise<VoucherPayload> {
  const channelId = computeChannelId(config, NETWORK);
  const signature = await signer.signTypedData({ domain: voucherDomain(CHAIN_ID), types: voucherTypes, primaryType: 'Voucher', message: { channelId, maxClaimableAmount: cumulative } });
  return { type: 'voucher', channelConfig: config, voucher: { channelId, maxClaimableAmount: cumulative.toString(), signature } };
}

/** The record a deposit leaves: 1 USDC held, `charged` charged, the chain read `syncedAgoMs` ago. */
function depositedRecord(config: ReturnType<typeof channelConfig>, charged: bigint, overrides: Partial<Channel> = {}): Channel {
  return {
    channelId: computeChannelId(config, NETWORK).toLowerCase(), channelConfig: config, chargedCumulativeAmount: charged.toString(),
    signedMaxClaimable: charged.toString(), signature: '0x', balance: '1000000', totalClaimed: '0', withdrawRequestedAt: 0, refundNonce: 0,
    onchainSyncedAt: Date.now(), lastRequestTimestamp: Date.now(), ...overrides,
  };
}

function reserved(decision: LocalVoucherDecision): LocalReservation {
  assert.equal(decision.kind, 'reserved', JSON.stringify(decision));
  return (decision as Extract<LocalVoucherDecision, { kind: 'reserved' }>).reservation;
}

test('the voucher digest is EIP-712\'s (viem\'s hashTypedData) for any channel and amount', () => {
  for (const [channelId, amount] of [[`0x${'ab'.repeat(32)}`, 1n], [`0x${'00'.repeat(31)}01`, 2n ** 128n - 1n], [`0x${'9F'.repeat(32)}`, 123_456_789n]] as const) {
    const expected = hashTypedData({ domain: voucherDomain(CHAIN_ID), types: voucherTypes, primaryType: 'Voucher', message: { channelId, maxClaimableAmount: amount } });
    assert.equal(voucherDigest(CHAIN_ID, channelId, amount), expected);
  }
});

test('one request per channel at a time in the process: a second track is refused until the first is released', () => {
  const lanes = new LocalVouchers({ chainId: CHAIN_ID, onchainStateTtlMs: 60_000 });
  const id = `0x${'ab'.repeat(32)}`;
  const untrack = lanes.track(id);
  assert.ok(untrack);
  assert.equal(lanes.track(id.toUpperCase().replace('0X', '0x')), undefined, 'the same channel, whatever the case');
  assert.ok(lanes.track(`0x${'cd'.repeat(32)}`), 'another channel is free');
  untrack();
  untrack();
  assert.ok(lanes.track(id));
});

const modes = [
  { name: 'reservations in the record (shared store)', exclusiveStore: false },
  { name: 'reservations in memory (embedded store)', exclusiveStore: true },
];
for (const store of useSqlStores()) for (const mode of modes) {
  describe(`local voucher check on ${store.name}, ${mode.name}`, () => {
    let db: SqlClient;
    let storage: SqlChannelStorage;
    const observed: { before: Channel | undefined; after: Channel | undefined }[] = [];
    let lanes: LocalVouchers;
    before(async () => {
      db = await store.open();
      storage = await SqlChannelStorage.open(db, { network: NETWORK, instance: 'test', observer: async (_tx, b, a) => { observed.push({ before: b, after: a }); } });
      lanes = new LocalVouchers({ store: storage, chainId: CHAIN_ID, onchainStateTtlMs: 60_000, exclusiveStore: mode.exclusiveStore });
    });
    after(() => db.close());

    const open = async (charged: bigint, overrides: Partial<Channel> = {}) => {
      const config = channelConfig();
      const record = depositedRecord(config, charged, overrides);
      await storage.updateChannel(record.channelId, () => record);
      return { config, id: record.channelId };
    };

    test('a voucher for the charged total plus the price is reserved, then charged with its row written in the same transaction', async () => {
      const { config, id } = await open(5_000n);
      const payload = await voucherPayload(config, 6_000n);
      const reservation = reserved(await lanes.decide(payload, requirements));
      if (!mode.exclusiveStore) {
        assert.ok((await storage.get(id))?.pendingRequest, 'the channel is reserved in the record, for every instance to see');
        // One request at a time: the same channel's next voucher is left to the SDK (which answers busy).
        assert.deepEqual(await lanes.decide(await voucherPayload(config, 6_000n), requirements), { kind: 'sdk' });
      } else {
        assert.equal((await storage.get(id))?.pendingRequest, undefined, 'nothing written to admit it: the scheme\'s track is the reservation');
      }

      observed.length = 0;
      const settled = await reservation.settle();
      assert.equal(settled.success, true);
      const record = await storage.get(id);
      assert.equal(record?.chargedCumulativeAmount, '6000');
      assert.equal(record?.signedMaxClaimable, '6000');
      assert.equal(record?.signature, payload.voucher.signature);
      assert.equal(record?.pendingRequest, undefined);
      assert.equal(observed.length, 1, 'the observer (the ledger row) ran once, inside the charge');
      assert.equal(observed[0]?.before?.chargedCumulativeAmount, '5000');
      assert.equal(observed[0]?.after?.chargedCumulativeAmount, '6000');
      // The next voucher goes on from the new total.
      await reserved(await lanes.decide(await voucherPayload(config, 7_000n), requirements)).settle();
      assert.equal((await storage.get(id))?.chargedCumulativeAmount, '7000');
    });

    test('a released reservation charges nothing and frees the channel for the same voucher', async () => {
      const { config, id } = await open(0n);
      const payload = await voucherPayload(config, 1_000n);
      await reserved(await lanes.decide(payload, requirements)).release();
      const record = await storage.get(id);
      assert.equal(record?.chargedCumulativeAmount, '0');
      assert.equal(record?.pendingRequest, undefined);
      await reserved(await lanes.decide(payload, requirements)).settle();
      assert.equal((await storage.get(id))?.chargedCumulativeAmount, '1000');
    });

    test('what the record does not expect is left to the SDK\'s path, unreserved: wrong amount, over the balance, at or below the claimed total, withdrawing, a stale mirror of the chain, no record', async () => {
      const cases: [string, bigint, Partial<Channel>, bigint][] = [
        ['a replayed amount', 3_000n, {}, 3_000n],
        ['an amount skipping ahead', 3_000n, {}, 5_000n],
        ['over the deposited balance', 999_500n, {}, 1_000_500n],
        ['not above the claimed total', 3_000n, { totalClaimed: '4000' }, 4_000n],
        ['a withdrawal started', 3_000n, { withdrawRequestedAt: 1_767_225_600 }, 4_000n],
        ['a mirror read two minutes ago', 3_000n, { onchainSyncedAt: Date.now() - 120_000 }, 4_000n],
      ];
      for (const [name, charged, overrides, cumulative] of cases) {
        const { config, id } = await open(charged, overrides);
        assert.deepEqual(await lanes.decide(await voucherPayload(config, cumulative), requirements), { kind: 'sdk' }, name);
        assert.equal((await storage.get(id))?.pendingRequest, undefined, `${name}: not reserved`);
      }
      assert.deepEqual(await lanes.decide(await voucherPayload(channelConfig(), 1_000n), requirements), { kind: 'sdk' }, 'no record');
    });

    test('a config that is not ours to be paid on, or that does not hash to the channel id, is left to the SDK', async () => {
      const { config } = await open(0n);
      const payload = await voucherPayload(config, 1_000n);
      const elsewhere = { ...requirements, payTo: '0x0000000000000000000000000000000000000bad' };
      assert.deepEqual(await lanes.decide(payload, elsewhere), { kind: 'sdk' });
      const otherDelay = { ...requirements, extra: { ...requirements.extra, withdrawDelay: 3_600 } };
      assert.deepEqual(await lanes.decide(payload, otherDelay), { kind: 'sdk' });
      const forged = { ...payload, channelConfig: { ...config, salt: `0x${'ff'.repeat(32)}` as Hex } };
      assert.deepEqual(await lanes.decide(forged, requirements), { kind: 'sdk' });
    });

    test('signatures the contract would refuse are refused for every payload type: someone else\'s, a high s, a v of 0/1, not 65 bytes', async () => {
      const { config, id } = await open(0n);
      const good = await voucherPayload(config, 1_000n);
      const withSignature = (signature: string, type: VoucherPayload['type'] = 'voucher'): VoucherPayload => ({ ...good, type, voucher: { ...good.voucher, signature } });
      const highS = malleateSignature(good.voucher.signature as Hex);
      const v01 = `${good.voucher.signature.slice(0, 130)}${good.voucher.signature.endsWith('1b') ? '00' : '01'}`;
      const refusals: [string, VoucherPayload][] = [
        ['another key', await voucherPayload(config, 1_000n, stranger)],
        ['high s', withSignature(highS)],
        ['v 0/1', withSignature(v01)],
        ['64 bytes', withSignature(good.voucher.signature.slice(0, 130))],
        ['high s on a deposit', withSignature(highS, 'deposit')],
        ['high s on a refund', withSignature(highS, 'refund')],
      ];
      for (const [name, payload] of refusals) {
        const decision = await lanes.decide(payload, requirements);
        assert.equal(decision.kind, 'refused', name);
        assert.equal((decision as { reason: string }).reason, 'invalid_batch_settlement_evm_voucher_signature', name);
      }
      assert.equal((await storage.get(id))?.pendingRequest, undefined);
      // A well-signed deposit or refund goes the SDK's way; so does a payer that signs as itself (ERC-1271 possible).
      assert.deepEqual(await lanes.decide({ ...good, type: 'deposit' }, requirements), { kind: 'sdk' });
      const selfSigned = { ...config, payerAuthorizer: '0x0000000000000000000000000000000000000000' as Hex };
      assert.deepEqual(await lanes.decide({ ...good, channelConfig: selfSigned, voucher: { ...good.voucher, signature: highS } }, requirements), { kind: 'sdk' });
    });

    test('a charge that finds the record changed since admission (a live reservation in it, a withdrawal started, another total) charges nothing', async () => {
      const changes: [string, (c: Channel) => Channel][] = [
        ['a live reservation by the SDK\'s path', (c) => ({ ...c, pendingRequest: { pendingId: 'sdk', signedMaxClaimable: '1000', expiresAt: Date.now() + 60_000 } })],
        ['a withdrawal started', (c) => ({ ...c, withdrawRequestedAt: 1_767_225_600, pendingRequest: c.pendingRequest })],
        ['another charged total', (c) => ({ ...c, chargedCumulativeAmount: '1000', pendingRequest: c.pendingRequest })],
      ];
      for (const [name, change] of changes) {
        const { config, id } = await open(0n);
        const reservation = reserved(await lanes.decide(await voucherPayload(config, 1_000n), requirements));
        await storage.updateChannel(id, (current) => change(current!));
        const answer = await reservation.settle();
        assert.equal(answer.success, false, name);
        assert.equal(answer.errorReason, 'invalid_batch_settlement_evm_channel_busy', name);
        assert.notEqual((await storage.get(id))?.signature, (await voucherPayload(config, 1_000n)).voucher.signature, `${name}: the voucher is not recorded`);
      }
    });

    if (!mode.exclusiveStore) test('a reservation lost before its charge (expired, taken by another request) charges nothing', async () => {
      let now = Date.now();
      const clocked = new LocalVouchers({ store: storage, chainId: CHAIN_ID, onchainStateTtlMs: 600_000, now: () => now });
      const { config, id } = await open(0n);
      const first = reserved(await clocked.decide(await voucherPayload(config, 1_000n), requirements));
      now += 61_000;
      const second = reserved(await clocked.decide(await voucherPayload(config, 1_000n), requirements));
      const lost = await first.settle();
      assert.equal(lost.success, false);
      assert.equal(lost.errorReason, 'invalid_batch_settlement_evm_channel_busy');
      assert.equal((await storage.get(id))?.chargedCumulativeAmount, '0');
      assert.equal((await second.settle()).success, true);
      assert.equal((await storage.get(id))?.chargedCumulativeAmount, '1000');
    });

    test('charges committed at once share a transaction; one whose ledger row cannot be written fails alone', async () => {
      let refuse = '';
      const picky = await SqlChannelStorage.open(db, {
        network: NETWORK, instance: 'test',
        observer: async (_tx, _b, a) => { if (a?.channelId === refuse) throw new Error('the ledger row conflicts'); },
      });
      const pickyLanes = new LocalVouchers({ store: picky, chainId: CHAIN_ID, onchainStateTtlMs: 60_000, exclusiveStore: mode.exclusiveStore });
      const channels = await Promise.all(Array.from({ length: 6 }, () => open(0n)));
      refuse = channels[2]!.id;
      const reservations = await Promise.all(channels.map(async ({ config }) => reserved(await pickyLanes.decide(await voucherPayload(config, 1_000n), requirements))));
      const answers = await Promise.allSettled(reservations.map((r) => r.settle()));
      answers.forEach((answer, i) => {
        if (i === 2) assert.equal(answer.status, 'rejected', 'its own failure');
        else assert.equal(answer.status === 'fulfilled' && answer.value.success, true, `channel ${i} charged`);
      });
      const charged = await Promise.all(channels.map(async ({ id }) => (await picky.get(id))?.chargedCumulativeAmount));
      assert.deepEqual(charged, ['1000', '1000', '0', '1000', '1000', '1000']);
    });

    test('the answer and the record are the SDK\'s own for the same voucher on the same state', async () => {
      // The SDK's path, as the gate runs it: verifyPayment then settlePayment on a resource server. Its
      // facilitator is never asked: the mirror of the chain is fresh, so the SDK checks locally too.
      const unused = () => Promise.reject(new Error('the facilitator was asked'));
      const facilitator: FacilitatorClient = {
        verify: unused, settle: unused,
        getSupported: async () => ({ kinds: [{ x402Version: 2, scheme: 'batch-settlement', network: NETWORK }], extensions: [], signers: {} }),
      };
      const sdkScheme = new ServerScheme(PAY_TO, { storage, receiverAuthorizerSigner: receiverAuthorizer, withdrawDelay: 86_400 });
      const server = new x402ResourceServer(facilitator).register(NETWORK, sdkScheme);
      await server.initialize();

      const sdkChannel = await open(2_000n, { totalClaimed: '1000', refundNonce: 2 });
      const localChannel = await open(2_000n, { totalClaimed: '1000', refundNonce: 2 });
      const sdkVoucher = await voucherPayload(sdkChannel.config, 3_000n);
      const payload: PaymentPayload = { x402Version: 2, accepted: requirements, payload: sdkVoucher as unknown as Record<string, unknown> };
      const verified = await server.verifyPayment(payload, requirements);
      assert.equal(verified.isValid, true, JSON.stringify(verified));
      const sdkAnswer = await server.settlePayment(payload, requirements);
      const localAnswer = await reserved(await lanes.decide(await voucherPayload(localChannel.config, 3_000n), requirements)).settle();

      const withoutId = (answer: typeof sdkAnswer) => JSON.parse(JSON.stringify(answer).replaceAll(sdkChannel.id, 'ID').replaceAll(localChannel.id, 'ID')) as unknown;
      assert.deepEqual(withoutId(localAnswer), withoutId(sdkAnswer));
      const comparable = (record: Channel | undefined) => {
        const { channelId: _id, channelConfig: _config, signature: _signature, lastRequestTimestamp: _last, onchainSyncedAt: _synced, ...rest } = record!;
        return rest;
      };
      assert.deepEqual(comparable(await storage.get(localChannel.id)), comparable(await storage.get(sdkChannel.id)));
    });
  });
}
