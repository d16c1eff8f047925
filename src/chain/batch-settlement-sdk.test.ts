// x402's batch-settlement scheme (payment channels) end to end on our dev chain, entirely through the
// official SDK: @x402/evm's client scheme signs the deposit and the vouchers, its server scheme runs
// inside @x402/core's x402ResourceServer (the hooks a payment gate calls) and its channel manager
// claims, settles and refunds, its facilitator scheme sends the transactions. Each step is checked
// by the contract's event in the receipt and by Circle's USDC balances. The gas is reported.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { x402Client } from '@x402/core/client';
import { x402Facilitator } from '@x402/core/facilitator';
import { x402ResourceServer } from '@x402/core/server';
import type { FacilitatorClient } from '@x402/core/server';
import type { Network, PaymentPayload, PaymentRequirements, SettleResponse, SupportedResponse } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme as ClientScheme, computeChannelId } from '@x402/evm/batch-settlement/client';
import { BatchSettlementEvmScheme as FacilitatorScheme } from '@x402/evm/batch-settlement/facilitator';
import { BatchSettlementEvmScheme as ServerScheme, InMemoryChannelStorage } from '@x402/evm/batch-settlement/server';
import { parseEventLogs } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import type { Hex, PrivateKeyAccount, TransactionReceipt } from 'viem';
import { chainClients, fundedPayer } from '../../test/support/payments.ts';
import { localFacilitatorSigner } from '../../test/support/official-facilitator.ts';
import { BATCH_SETTLEMENT_ADDRESSES, batchSettlementAbi } from './batch-settlement-contracts.ts';
import type { DevChain } from './devchain.ts';
import { startDevChain } from './devchain.ts';

const PRICE = 10_000n; // 0.01 USDC
// The server announces extra.minDeposit (default 10 prices) and the SDK's client deposits exactly
// that; its own depositMultiplier counts only when no minDeposit is announced.
const MIN_DEPOSIT = PRICE * 20n;
const CALLS = 4; // the deposit's voucher and three more
const WITHDRAW_DELAY = 900; // seconds: the contract's minimum, 15 min

let chain: DevChain;
let clients: ReturnType<typeof chainClients>;
let network: Network;
let receiverAuthorizer: PrivateKeyAccount;
let facilitator: x402Facilitator;

before(async () => {
  chain = await startDevChain({ tokenName: 'USD Coin' });
  clients = chainClients(chain);
  network = chain.network;
  receiverAuthorizer = privateKeyToAccount(generatePrivateKey());
  // No authorizer key for the facilitator: the server signs claims and refunds with its own.
  facilitator = new x402Facilitator().register(network, new FacilitatorScheme(localFacilitatorSigner(chain, privateKeyToAccount(chain.settlerKey))));
});
after(async () => {
  await chain?.stop();
});

/** The in-process facilitator, as @x402/core's resource server and the channel manager call one. */
function localFacilitatorClient(): FacilitatorClient {
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    // x402Facilitator types `network` as a plain string; the kinds are the ones it registered, CAIP-2 ids.
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
}

async function receipt(hash: string): Promise<TransactionReceipt> {
  const found = await clients.publicClient.getTransactionReceipt({ hash: hash as Hex });
  assert.equal(found.status, 'success', `transaction ${hash}`);
  return found;
}

/** The settlement contract's events of one name in a receipt. */
function events(found: TransactionReceipt, eventName: string): Record<string, unknown>[] {
  const logs = found.logs.filter((log) => log.address.toLowerCase() === BATCH_SETTLEMENT_ADDRESSES.settlement.toLowerCase());
  return parseEventLogs({ abi: batchSettlementAbi, logs, eventName }).map((log) => (log as unknown as { args: Record<string, unknown> }).args);
}

test('a channel lives and closes on our chain through the official SDK: deposit, vouchers, claim, settle, refund', async (t) => {
  // The second payer's run measures the gas again once the receiver and the contract have known balances.
  for (const [run, payer] of [['first channel', await fundedPayer(chain, '10')], ['second channel', await fundedPayer(chain, '10')]] as const) {
    const gas = await channelLifecycle(payer);
    t.diagnostic(`${run}, gas used: ${Object.entries(gas).map(([step, used]) => `${step} ${used}`).join(', ')}`);
  }
});

async function channelLifecycle(payer: PrivateKeyAccount): Promise<Record<string, bigint>> {
  const receiver = chain.payTo;
  const storage = new InMemoryChannelStorage();
  const serverScheme = new ServerScheme(receiver, { storage, receiverAuthorizerSigner: receiverAuthorizer, withdrawDelay: WITHDRAW_DELAY });
  const resourceServer = new x402ResourceServer(localFacilitatorClient()).register(network, serverScheme);
  await resourceServer.initialize();

  const [requirements] = await resourceServer.buildPaymentRequirements({
    scheme: 'batch-settlement',
    network,
    payTo: receiver,
    price: { amount: PRICE.toString(), asset: chain.usdc, extra: { name: chain.tokenName, version: '2', minDeposit: MIN_DEPOSIT.toString() } },
    maxTimeoutSeconds: 300,
  });
  assert.ok(requirements);
  assert.equal(requirements.extra.receiverAuthorizer, receiverAuthorizer.address);
  assert.equal(requirements.extra.withdrawDelay, WITHDRAW_DELAY);
  assert.equal(requirements.extra.minDeposit, MIN_DEPOSIT.toString());

  const clientScheme = new ClientScheme(toClientEvmSigner(payer, clients.publicClient as never), { depositPolicy: { depositMultiplier: 3 } });
  const client = new x402Client().register(network, clientScheme);
  // Our local USDC is no default asset of the SDK. A per-asset cap here would also cap the deposit.
  client.setSpendControls({ allowedAssets: [{ network, asset: chain.usdc }] });
  const paymentRequired = await resourceServer.createPaymentRequiredResponse([requirements], { url: 'http://127.0.0.1/tools/example', description: 'one call', mimeType: 'application/json' });

  const payerBefore = await clients.balanceOf(payer.address);
  const receiverBefore = await clients.balanceOf(receiver);
  const gas: Record<string, bigint> = {};

  /** One paid call as a gate runs it: verify, (the tool would run here), settle, and the client reads the answer. */
  async function paidCall(): Promise<{ payload: PaymentPayload; settled: SettleResponse }> {
    const payload = await client.createPaymentPayload(paymentRequired);
    const accepted = resourceServer.findMatchingRequirements(paymentRequired.accepts, payload) as PaymentRequirements;
    const verified = await resourceServer.verifyPayment(payload, accepted);
    assert.equal(verified.isValid, true, `verify: ${verified.invalidReason} ${verified.invalidMessage ?? ''}`);
    const settled = await resourceServer.settlePayment(payload, accepted);
    assert.equal(settled.success, true, `settle: ${settled.errorReason} ${settled.errorMessage ?? ''}`);
    await client.handlePaymentResponse({ paymentPayload: payload, requirements: accepted, settleResponse: settled });
    return { payload, settled };
  }

  // 1. The first call deposits through the ERC3009DepositCollector (receiveWithAuthorization) and carries the first voucher.
  const first = await paidCall();
  const deposit = first.payload.payload as { type: string; deposit: { amount: string }; voucher: { channelId: Hex; maxClaimableAmount: string } };
  assert.equal(deposit.type, 'deposit');
  const depositAmount = BigInt(deposit.deposit.amount);
  assert.equal(depositAmount, MIN_DEPOSIT, 'the announced minDeposit, not 3 prices');
  const channelId = deposit.voucher.channelId;
  const config = clientScheme.buildChannelConfig(requirements);
  assert.equal(computeChannelId(config, network), channelId);
  const onChainId = await clients.publicClient.readContract({ address: BATCH_SETTLEMENT_ADDRESSES.settlement, abi: batchSettlementAbi, functionName: 'getChannelId', args: [config] });
  assert.equal(onChainId, channelId, 'the contract computes the same channel id');

  const depositReceipt = await receipt(first.settled.transaction);
  gas.deposit = depositReceipt.gasUsed;
  const [deposited] = events(depositReceipt, 'Deposited');
  assert.ok(deposited, 'Deposited event');
  assert.equal(events(depositReceipt, 'ChannelCreated').length, 1, 'ChannelCreated event');
  assert.equal(deposited.channelId, channelId);
  assert.equal(deposited.amount, depositAmount);
  assert.equal(await clients.balanceOf(payer.address), payerBefore - depositAmount);
  assert.equal(await clients.balanceOf(BATCH_SETTLEMENT_ADDRESSES.settlement), depositAmount);

  // 2. Later calls are vouchers only: cumulative, checked by the server with no transaction.
  for (let call = 2; call <= CALLS; call++) {
    const { payload, settled } = await paidCall();
    const voucher = payload.payload as { type: string; voucher: { maxClaimableAmount: string } };
    assert.equal(voucher.type, 'voucher');
    assert.equal(BigInt(voucher.voucher.maxClaimableAmount), PRICE * BigInt(call), 'cumulative amount');
    assert.equal(settled.transaction, '', 'a voucher sends nothing');
  }
  const charged = PRICE * BigInt(CALLS);
  assert.equal((await storage.get(channelId))?.chargedCumulativeAmount, charged.toString());
  assert.equal(await clients.balanceOf(receiver), receiverBefore, 'nothing moved to the receiver yet');

  // 3. The channel manager claims the latest voucher (claimWithSignature, signed by the receiver authorizer) ...
  const manager = serverScheme.createChannelManager(localFacilitatorClient(), network, chain.usdc);
  const claims = await manager.claim();
  assert.equal(claims.length, 1);
  assert.equal(claims[0]?.vouchers, 1);
  const claimReceipt = await receipt(claims[0]?.transaction ?? '');
  gas.claim = claimReceipt.gasUsed;
  const [claimed] = events(claimReceipt, 'Claimed');
  assert.ok(claimed, 'Claimed event');
  assert.equal(claimed.channelId, channelId);
  assert.equal(claimed.claimAmount, charged);
  assert.equal(await clients.balanceOf(receiver), receiverBefore, 'a claim is accounting only');

  // 4. ... settle moves every claimed unit to the receiver ...
  const settle = await manager.settle();
  const settleReceipt = await receipt(settle.transaction);
  gas.settle = settleReceipt.gasUsed;
  const [settledEvent] = events(settleReceipt, 'Settled');
  assert.ok(settledEvent, 'Settled event');
  assert.equal(settledEvent.amount, charged);
  assert.equal(await clients.balanceOf(receiver), receiverBefore + charged, 'the receiver gets exactly the vouchers claimed');

  // 5. ... and a cooperative refund returns the rest to the payer.
  const refunds = await manager.refund([channelId]);
  assert.equal(refunds.length, 1);
  const refundReceipt = await receipt(refunds[0]?.transaction ?? '');
  gas.refund = refundReceipt.gasUsed;
  const [refunded] = events(refundReceipt, 'Refunded');
  assert.ok(refunded, 'Refunded event');
  assert.equal(refunded.channelId, channelId);
  assert.equal(refunded.amount, depositAmount - charged);
  assert.equal(await clients.balanceOf(payer.address), payerBefore - charged, 'the payer has back all it did not spend');
  assert.equal(await clients.balanceOf(BATCH_SETTLEMENT_ADDRESSES.settlement), 0n, 'the contract holds nothing');

  return gas;
}
