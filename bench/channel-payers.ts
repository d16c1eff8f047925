// Payers of the channel benchmark. Each opens its channel through the OFFICIAL client (@x402/fetch
// over an x402Client with only the official batch-settlement client scheme registered): the first
// call deposits, the second sends a voucher, which becomes the template of the payer's later
// payments. Those are signed before the timed window by the SDK's own signVoucher (cumulative
// amounts: charged so far + k prices), and the `exact` payments beside them by the official
// client's ExactEvmScheme, both over the native signer (bench/native-signer.ts).
import { x402Client } from '@x402/core/client';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader, decodePaymentSignatureHeader, encodePaymentSignatureHeader } from '@x402/core/http';
import type { Network, PaymentPayload, PaymentRequired } from '@x402/core/types';
import { toClientEvmSigner } from '@x402/evm';
import { BatchSettlementEvmScheme, signVoucher } from '@x402/evm/batch-settlement/client';
import { ExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { createPublicClient, http, type Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { localChain, type DevChain } from './chain.ts';
import { nativeAccount } from './native-signer.ts';
import type { Payer } from './payers.ts';

interface ChannelPayloadBody {
  type: 'deposit' | 'voucher';
  voucher: { channelId: Hex; maxClaimableAmount: string; signature: Hex };
  deposit?: { amount: string };
}

export const channelBody = (payload: PaymentPayload) => payload.payload as unknown as ChannelPayloadBody;

/**
 * The official client paying by channel, recording each payment it sends and each settlement it
 * gets. `depositAtomic` sizes deposits (the SDK's `depositStrategy`); without it the client's
 * default applies: the gateway's announced `minDeposit`.
 */
export function officialChannelClient(devChain: DevChain, payer: Payer, depositAtomic?: bigint) {
  const network = devChain.network as Network;
  const publicClient = createPublicClient({ chain: localChain(devChain.chainId, devChain.rpcUrl), transport: http(devChain.rpcUrl) });
  const scheme = new BatchSettlementEvmScheme(toClientEvmSigner(privateKeyToAccount(payer.privateKey), publicClient as never), depositAtomic === undefined ? undefined : { depositStrategy: () => depositAtomic.toString() });
  const client = new x402Client().register(network, scheme);
  client.setSpendControls({ maxAmountPerPayment: false, allowedAssets: [{ network, asset: devChain.usdc }] });
  const sent: PaymentPayload[] = [];
  const recording: typeof fetch = async (input, init) => {
    const request = new Request(input, init);
    const header = request.headers.get('payment-signature');
    if (header) sent.push(decodePaymentSignatureHeader(header));
    return fetch(request);
  };
  return { pay: wrapFetchWithPayment(recording, client), sent };
}

export interface OpenChannel {
  payer: Payer;
  channelId: Hex;
  depositTx: Hex;
  depositAtomic: bigint;
  /** A voucher payload of the official client's, to copy for later vouchers. */
  template: PaymentPayload;
  /** Charged so far (the deposit's call and the template's). */
  chargedAtomic: bigint;
}

async function paidOk(response: Response, what: string): Promise<string> {
  await response.arrayBuffer();
  const header = response.headers.get('payment-response');
  const settled = header ? decodePaymentResponseHeader(header) : undefined;
  const required = response.headers.get('payment-required');
  const asked = required ? decodePaymentRequiredHeader(required).error : undefined;
  if (response.status !== 200 || !settled?.success) throw new Error(`${what}: ${response.status} ${settled?.errorReason ?? asked ?? ''}`);
  return settled.transaction;
}

/** One deposit and one voucher through the official client. */
export async function openChannel(devChain: DevChain, url: string, payer: Payer, priceAtomic: bigint, depositAtomic?: bigint): Promise<OpenChannel> {
  const { pay, sent } = officialChannelClient(devChain, payer, depositAtomic);
  const depositTx = (await paidOk(await pay(url), `deposit of ${payer.address} (${sent.map((p) => channelBody(p).deposit?.amount).join(', ')} atomic)`)) as Hex;
  await paidOk(await pay(url), `first voucher of ${payer.address}`);
  const deposit = channelBody(sent[0]!);
  const template = sent.at(-1)!;
  if (deposit.type !== 'deposit' || channelBody(template).type !== 'voucher') throw new Error(`${payer.address}: expected a deposit then a voucher, got ${deposit.type}, ${channelBody(template).type}`);
  return { payer, channelId: deposit.voucher.channelId, depositTx, depositAtomic: BigInt(deposit.deposit?.amount ?? 0), template, chargedAtomic: 2n * priceAtomic };
}

/** The PAYMENT-SIGNATURE headers of the channel's next `count` calls, signed by the SDK's signVoucher. */
export async function presignVouchers(devChain: DevChain, channel: OpenChannel, priceAtomic: bigint, count: number): Promise<string[]> {
  const signer = toClientEvmSigner(nativeAccount(channel.payer.privateKey));
  const headers: string[] = [];
  for (let k = 1n; k <= BigInt(count); k++) {
    const voucher = await signVoucher(signer, channel.channelId, (channel.chargedAtomic + k * priceAtomic).toString(), devChain.network);
    headers.push(encodePaymentSignatureHeader({ ...channel.template, payload: { ...channel.template.payload, voucher } }));
  }
  return headers;
}

/** The 402 of an unpaid call, decoded. */
export async function paymentRequiredOf(url: string): Promise<PaymentRequired> {
  const response = await fetch(url);
  await response.arrayBuffer();
  const header = response.headers.get('payment-required');
  if (response.status !== 402 || !header) throw new Error(`GET ${url}: ${response.status}, expected a 402 with PAYMENT-REQUIRED`);
  return decodePaymentRequiredHeader(header);
}

/** `count` distinct `exact` payments (fresh ERC-3009 nonces) by the official client's ExactEvmScheme. */
export async function presignExact(devChain: DevChain, paymentRequired: PaymentRequired, payer: Payer, count: number): Promise<string[]> {
  const network = devChain.network as Network;
  const client = new x402Client().register(network, new ExactEvmScheme(toClientEvmSigner(nativeAccount(payer.privateKey))));
  client.setSpendControls({ allowedAssets: [{ network, asset: devChain.usdc }] });
  const exactOnly: PaymentRequired = { ...paymentRequired, accepts: paymentRequired.accepts.filter((a) => a.scheme === 'exact') };
  const headers: string[] = [];
  for (let i = 0; i < count; i++) headers.push(encodePaymentSignatureHeader(await client.createPaymentPayload(exactOnly)));
  return headers;
}
