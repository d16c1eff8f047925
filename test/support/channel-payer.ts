// A payer through payment channels with the OFFICIAL client: @x402/fetch over an x402Client with
// only the official batch-settlement client scheme registered, recording every payment it sends.
import assert from 'node:assert/strict';
import { x402Client } from '@x402/core/client';
import { decodePaymentResponseHeader, decodePaymentSignatureHeader } from '@x402/core/http';
import type { Network, PaymentPayload, SettleResponse } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme as ClientScheme } from '@x402/evm/batch-settlement/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { parseEventLogs } from 'viem';
import type { Hex, PrivateKeyAccount } from 'viem';
import { BATCH_SETTLEMENT_ADDRESSES, batchSettlementAbi } from '../../src/chain/batch-settlement-contracts.ts';
import type { DevChain } from '../../src/chain/devchain.ts';
import { chainClients } from './payments.ts';

export interface ChannelPayload {
  type: 'deposit' | 'voucher' | 'refund';
  channelConfig: { payer: Hex; payerAuthorizer: Hex; receiver: Hex; receiverAuthorizer: Hex; token: Hex; withdrawDelay: number; salt: Hex };
  voucher: { channelId: Hex; maxClaimableAmount: string; signature: Hex };
  deposit?: { amount: string };
}

export const channelPayload = (payload: PaymentPayload) => payload.payload as unknown as ChannelPayload;

export interface SentPayment {
  url: string;
  header: string;
  payload: PaymentPayload;
}

export function channelPayer(chain: DevChain, payer: PrivateKeyAccount) {
  const { publicClient } = chainClients(chain);
  const scheme = new ClientScheme(toClientEvmSigner(payer, publicClient as never));
  const client = new x402Client().register(chain.network as Network, scheme);
  client.setSpendControls({ allowedAssets: [{ network: chain.network as Network, asset: chain.usdc }] });
  const sent: SentPayment[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const header = request.headers.get('payment-signature');
    if (header) sent.push({ url: request.url, header, payload: decodePaymentSignatureHeader(header) });
    return fetch(request);
  };
  return { pay: wrapFetchWithPayment(recording, client), client, scheme, sent };
}

export function settlementOf(response: Response): SettleResponse {
  const header = response.headers.get('payment-response');
  assert.ok(header, 'PAYMENT-RESPONSE');
  return decodePaymentResponseHeader(header);
}


/** Every `Claimed` event of the settlement contract from `fromBlock` on: one row per claimed channel, with its transaction. */
export async function claimedSince(chain: DevChain, fromBlock: bigint): Promise<{ transaction: Hex; channelId: Hex; claimAmount: bigint; newTotalClaimed: bigint }[]> {
  const { publicClient } = chainClients(chain);
  const logs = await publicClient.getLogs({ address: BATCH_SETTLEMENT_ADDRESSES.settlement, fromBlock, toBlock: 'latest' });
  return parseEventLogs({ abi: batchSettlementAbi, logs, eventName: 'Claimed' }).map((log) => {
    const args = (log as unknown as { args: { channelId: Hex; claimAmount: bigint; newTotalClaimed: bigint } }).args;
    return { transaction: log.transactionHash!, channelId: args.channelId, claimAmount: args.claimAmount, newTotalClaimed: args.newTotalClaimed };
  });
}
