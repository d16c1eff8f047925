// Assembles payment channels from the configuration, or says in the log why they are not offered:
// the receiver-authorizer key, who sends the transactions (our in-process facilitator with its own
// key, or a remote facilitator whose /supported lists batch-settlement on our network), the SDK's
// server scheme inside an x402ResourceServer, the gate's scheme, the collector and the withdrawal watcher.
import { HTTPFacilitatorClient, x402ResourceServer } from '@x402/core/server';
import type { FacilitatorClient } from '@x402/core/server';
import { BatchSettlementEvmScheme as ServerScheme } from '@x402/evm/batch-settlement/server';
import type { BatchSettlementChannelManager, ChannelStorage } from '@x402/evm/batch-settlement/server';
import { createPublicClient, http } from 'viem';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { BATCH_SETTLEMENT_ADDRESSES, batchSettlementAbi } from '../../../chain/batch-settlement-contracts.ts';
import { devPrivateKey } from '../../../chain/dev-accounts.ts';
import { fundDevAccounts } from '../../../chain/devchain.ts';
import { viemChain } from '../../../chain/viem-chain.ts';
import type { Config } from '../../../config.ts';
import type { Logger } from '../../../log.ts';
import type { SqlChannelClaims } from '../../channels/channel-claims.ts';
import type { ClaimSenderLock } from '../../channels/claim-sender-lock.ts';
import type { ChannelPayments } from '../../ledger/channel-payments.ts';
import type { PaymentLedger } from '../../ledger/payment-ledger.ts';
import type { PaymentNetwork } from '../../networks.ts';
import type { SettlerKeyLock } from '../../settlement/settler-key-lock.ts';
import type { PaymentTerms } from '../../requirements.ts';
import { BatchSettlementScheme } from './batch-settlement-scheme.ts';
import { ChannelCollector } from './channel-collector.ts';
import { ChannelLedger } from './channel-ledger.ts';
import { IdleRefunds } from './idle-refunds.ts';
import { LocalVouchers } from './local-vouchers.ts';
import type { VoucherStore } from './local-vouchers.ts';
import { WithdrawalWatcher } from './withdrawal-watcher.ts';
import { channelFacilitatorSigner, inProcessChannelFacilitator, supportsChannels } from './channel-facilitator.ts';

export interface Channels {
  scheme: BatchSettlementScheme;
  collector: ChannelCollector;
  /** The SDK's channel manager: claims, settles, cooperative refunds. */
  manager: BatchSettlementChannelManager;
  storage: ChannelStorage;
  /** Claims a withdrawing payer's channel at once; started and stopped with the collector. */
  withdrawals: WithdrawalWatcher;
  /** Refunds channels idle for TOOLGATE_CHANNEL_IDLE_REFUND_S; absent when it is 0 (never). */
  idleRefunds: IdleRefunds | undefined;
}

export interface ChannelSetup {
  config: Pick<Config, 'channels' | 'facilitatorUrl' | 'facilitatorTimeoutMs' | 'pollingIntervalMs' | 'receiptTimeoutMs'>;
  network: PaymentNetwork;
  rpcUrl: string;
  terms: PaymentTerms;
  /** The catalogue's prices. */
  prices: readonly string[];
  /** Where the server scheme keeps each channel's record: must be atomic across instances that share it. */
  storage: ChannelStorage;
  /**
   * The same records, as the local voucher check reserves and charges them (TOOLGATE_CHANNEL_VOUCHER_CHECK=local);
   * `exclusive`: this process alone uses the store (the embedded one), so reservations stay in memory.
   */
  vouchers?: { store: VoucherStore; exclusive: boolean };
  /** The same records, as the claimer lists them. */
  claims: SqlChannelClaims;
  /** One claim sender at a time among the instances sharing the storage. */
  claimLock: ClaimSenderLock;
  /** Instances sharing the channel settler key send one at a time (absent: one instance). */
  keyLock?: SettlerKeyLock;
  /** Channel calls as rows of the payment ledger (the storage must be observed by `payments`). */
  ledger?: { ledger: PaymentLedger; payments: ChannelPayments; instance?: string };
  log: Logger;
}

export async function openChannels(setup: ChannelSetup): Promise<Channels | undefined> {
  const { config, network, rpcUrl, terms, log } = setup;
  const local = network.name === 'local';
  const notOffered = (why: string) => {
    log.warn({ scheme: 'batch-settlement' }, `payment channels are not offered: ${why}`);
    return undefined;
  };

  const authorizerKey = config.channels.receiverAuthorizerKey ?? (local ? devPrivateKey('receiverAuthorizer') : undefined);
  if (!authorizerKey) return notOffered(`TOOLGATE_RECEIVER_AUTHORIZER_PRIVATE_KEY is not set on ${network.name} (it signs the claims and refunds of our channels)`);

  let facilitator: FacilitatorClient;
  if (config.facilitatorUrl) {
    const remote = new HTTPFacilitatorClient({ url: config.facilitatorUrl, timeoutMs: config.facilitatorTimeoutMs });
    try {
      if (!supportsChannels(await remote.getSupported(), network.caip2)) {
        return notOffered(`the facilitator at ${config.facilitatorUrl} does not list batch-settlement on ${network.caip2} in /supported`);
      }
    } catch (error) {
      return notOffered(`the facilitator at ${config.facilitatorUrl} did not answer /supported (${error instanceof Error ? error.message : String(error)})`);
    }
    facilitator = remote;
  } else {
    const settlerKey = config.channels.settlerKey ?? (local ? devPrivateKey('channelSettler') : undefined);
    if (!settlerKey) return notOffered(`TOOLGATE_CHANNEL_SETTLER_PRIVATE_KEY is not set on ${network.name} (the key that pays the gas of deposits, claims and refunds)`);
    const settler = privateKeyToAccount(settlerKey);
    // Anvil's own accounts hold ETH from genesis; a configured key is given some, as the exact settlers are.
    if (local && config.channels.settlerKey) await fundDevAccounts(rpcUrl, [settler.address]);
    facilitator = inProcessChannelFacilitator(network.caip2, channelFacilitatorSigner({ chain: viemChain(network, rpcUrl), rpcUrl, pollingIntervalMs: config.pollingIntervalMs }, settler, setup.keyLock));
  }

  const { storage } = setup;
  const serverScheme = new ServerScheme(terms.payTo, {
    storage,
    receiverAuthorizerSigner: privateKeyToAccount(authorizerKey as Hex),
    withdrawDelay: config.channels.withdrawDelaySeconds,
    // Our channel settler pays each deposit's gas: a deposit below the announced minimum is refused.
    enforceMinDeposit: true,
  });
  const resourceServer = new x402ResourceServer(facilitator).register(network.caip2, serverScheme);
  await resourceServer.initialize();
  const receipts = createPublicClient({ chain: viemChain(network, rpcUrl), transport: http(rpcUrl), pollingInterval: config.pollingIntervalMs });
  const rows = setup.ledger;
  const scheme = await BatchSettlementScheme.create({
    resourceServer, serverScheme, terms, minDepositCalls: config.channels.minDepositCalls, prices: setup.prices,
    receipts, receiptTimeoutMs: config.receiptTimeoutMs, log,
    ...(rows ? { ledger: new ChannelLedger({ ...rows, receipts, log }) } : {}),
    localVouchers: new LocalVouchers({
      chainId: network.chainId, onchainStateTtlMs: serverScheme.getOnchainStateTtlMs(),
      ...(setup.vouchers && config.channels.voucherCheck === 'local' ? { store: setup.vouchers.store, exclusiveStore: setup.vouchers.exclusive } : {}),
    }),
  });
  const manager = serverScheme.createChannelManager(facilitator, network.caip2, network.usdc.address);
  const collector = new ChannelCollector({
    manager, receipts, intervalMs: config.channels.claimIntervalMs, receiptTimeoutMs: config.receiptTimeoutMs, lock: setup.claimLock, log,
    policy: { minUnclaimed: config.channels.claimMinUnclaimed, maxIdleMs: config.channels.claimIdleMs },
    ...(rows ? {
      ledger: {
        clock: () => rows.payments.clock(),
        settled: (sentAt: string) => rows.payments.settled(network.caip2, sentAt),
        recordCollection: (transactions) => rows.payments.recordCollection(network.caip2, transactions),
        holdClaims: () => rows.payments.holdClaims(),
        claimBehind: () => rows.payments.claimBehind(network.caip2),
      },
    } : {}),
    owed: async () => {
      const [claimed, settled] = (await receipts.readContract({
        address: BATCH_SETTLEMENT_ADDRESSES.settlement, abi: batchSettlementAbi, functionName: 'receivers', args: [terms.payTo, network.usdc.address],
      })) as readonly [bigint, bigint];
      return claimed - settled;
    },
  });
  const withdrawals = new WithdrawalWatcher({ chain: receipts, storage, claims: setup.claims, collector, pollMs: config.channels.withdrawPollMs, log });
  const idleRefunds = config.channels.idleRefundSeconds > 0
    ? new IdleRefunds({
      manager, storage, receipts, receiptTimeoutMs: config.receiptTimeoutMs, idleSeconds: config.channels.idleRefundSeconds, lock: setup.claimLock, log,
    })
    : undefined;
  return { scheme, collector, manager, storage, withdrawals, idleRefunds };
}
