// The facilitator side of payment channels, in process: @x402/core's x402Facilitator with the
// official @x402/evm batch-settlement facilitator scheme. It sends deposits, claims, settles and
// refunds with a key of its own (TOOLGATE_CHANNEL_SETTLER_PRIVATE_KEY), so its nonces never race
// the `exact` settler keys'. It gets no authorizer key: the receiver-authorizer key stays with the
// server scheme, because a facilitator holding it signs claims and refunds for whoever asks
// (docs/payment-channels.md, surprise 4).
import { x402Facilitator } from '@x402/core/facilitator';
import type { FacilitatorClient } from '@x402/core/server';
import type { Network, SupportedResponse } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import type { FacilitatorEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme as FacilitatorScheme } from '@x402/evm/batch-settlement/facilitator';
import { createPublicClient, createWalletClient, http } from 'viem';
import type { Account, Chain } from 'viem';
import type { SettlerKeyLock } from '../../settlement/settler-key-lock.ts';

export interface ChannelChain {
  chain: Chain;
  rpcUrl: string;
  /** Receipt polling: without it viem falls back to 4 s on a chain that declares no block time. */
  pollingIntervalMs: number;
}

/**
 * The official facilitator's EVM signer over plain viem clients: one key sends, the chain is read.
 * Sends go one at a time: viem reads the account's pending nonce for each write, so a deposit and a
 * claim sent together take the same nonce and all but one fail (measured: 5 of 6 concurrent writes).
 * Instances sharing the key also take `keyLock` (the advisory settler-key lock on PostgreSQL). Each
 * is held until the node has the transaction, not until its receipt.
 */
export function channelFacilitatorSigner({ chain, rpcUrl, pollingIntervalMs }: ChannelChain, account: Account, keyLock?: SettlerKeyLock): FacilitatorEvmSigner {
  const publicClient = createPublicClient({ chain, transport: http(rpcUrl), pollingInterval: pollingIntervalMs });
  const wallet = createWalletClient({ chain, transport: http(rpcUrl), account, pollingInterval: pollingIntervalMs });
  let queue: Promise<unknown> = Promise.resolve();
  const oneAtATime = <T>(send: () => Promise<T>): Promise<T> => {
    const turn = queue.then(() => (keyLock ? keyLock.hold(account.address, send) : send()));
    queue = turn.catch(() => undefined);
    return turn;
  };
  // The signer declares loose shapes (abi: unknown[], functionName: string); viem's methods are
  // generic over the exact ABI. The data is the same, so each boundary is cast with `as never`.
  return toFacilitatorEvmSigner({
    address: account.address,
    readContract: (a) => publicClient.readContract(a as never),
    verifyTypedData: (a) => publicClient.verifyTypedData(a as never),
    writeContract: (a) => oneAtATime(() => wallet.writeContract(a as never)),
    sendTransaction: (a) => oneAtATime(() => wallet.sendTransaction(a as never)),
    waitForTransactionReceipt: (a) => publicClient.waitForTransactionReceipt({ ...a, pollingInterval: pollingIntervalMs }),
    getCode: (a) => publicClient.getCode(a),
  });
}

/** An in-process facilitator for channels on one network, as the resource server and the channel manager call one. */
export function inProcessChannelFacilitator(network: Network, signer: FacilitatorEvmSigner): FacilitatorClient {
  const facilitator = new x402Facilitator().register(network, new FacilitatorScheme(signer));
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    // x402Facilitator types `network` as a plain string; the kinds are the one it registered, a CAIP-2 id.
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
}

/** Whether a facilitator's /supported lists batch-settlement (x402 v2) on this network. */
export function supportsChannels(supported: SupportedResponse, network: string): boolean {
  return supported.kinds.some((kind) => kind.x402Version === 2 && kind.scheme === 'batch-settlement' && kind.network === network);
}
