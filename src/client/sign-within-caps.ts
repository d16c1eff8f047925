// Signs a payment with the official x402 client (@x402/core's x402Client and @x402/evm's exact
// scheme) only when it fits the caps. The client's own spend controls enforce the per-call cap on
// the one asset the gateway's documents advertise, a policy keeps only that network and asset, and
// a before-payment-creation hook reserves the amount against the session and the day, aborting
// (nothing signed) when a budget would be passed.
import { x402Client } from '@x402/core/client';
import type { Network, PaymentPayload, PaymentRequired, PaymentRequirements } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { appendPaymentIdentifierToExtensions } from '@x402/extensions/payment-identifier';
import type { LocalAccount } from 'viem';
import type { GatewayTool } from './gateway-tools.ts';
import type { Reservation, SpendLimits } from './spend-limits.ts';
import { SpendRefused } from './spend-refusal.ts';
import { formatUsdc } from './usdc-amount.ts';

export interface SignedPayment {
  payload: PaymentPayload;
  requirements: PaymentRequirements;
  reservation: Reservation;
}

/** What --dry-run shows: the terms the client would accept and the authorization it would sign. */
export interface PaymentPreview {
  requirements: PaymentRequirements;
  domain: { name: string; version: string; chainId: number; verifyingContract: string };
  authorization: { from: string; to: string; value: string; validAfter: string; validBefore: string; nonce: string };
}

function officialClient(tool: GatewayTool, cap: bigint, account: LocalAccount): x402Client {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: account });
  // The per-call cap, on the asset the gateway advertises (a local chain's USDC is unknown to the
  // client's defaults and must be allowed by name anyway).
  client.setSpendControls({ allowedAssets: [{ network: tool.network as Network, asset: tool.asset, maxAmountPerPayment: cap.toString() }] });
  client.registerPolicy((_version, offers) => offers.filter((o) => o.network === tool.network && o.asset.toLowerCase() === tool.asset.toLowerCase()));
  return client;
}

const offeredOnNetwork = (paymentRequired: PaymentRequired, tool: GatewayTool): bigint | undefined =>
  paymentRequired.accepts
    .filter((o) => o.network === tool.network && o.asset.toLowerCase() === tool.asset.toLowerCase())
    .map((o) => BigInt(o.amount))
    .sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))[0];

/** The official client's refusals, in the words of this client. */
function explainFailure(error: unknown, paymentRequired: PaymentRequired, tool: GatewayTool, cap: bigint): Error {
  const message = (error as Error).message ?? String(error);
  const asked = offeredOnNetwork(paymentRequired, tool);
  if (/spendControls/.test(message) && asked !== undefined) return new SpendRefused('per-call', tool.name, asked, cap, 0n);
  if (/filtered out by policies|spendControls/.test(message)) {
    const offers = paymentRequired.accepts.map((o) => `${o.amount} of ${o.asset} on ${o.network}`).join(', ');
    return new Error(`refused, nothing signed: the gateway asks for ${offers}, not the ${tool.asset} on ${tool.network} its documents advertise for ${tool.name}`);
  }
  return error instanceof Error ? error : new Error(message);
}

export async function signWithinCaps(paymentRequired: PaymentRequired, tool: GatewayTool, account: LocalAccount, limits: SpendLimits): Promise<SignedPayment> {
  const cap = limits.perCallCap(tool);
  const client = officialClient(tool, cap, account);
  let reservation: Reservation | undefined;
  let refusal: SpendRefused | undefined;
  let requirements: PaymentRequirements | undefined;
  client.onBeforePaymentCreation(async ({ selectedRequirements }) => {
    requirements = selectedRequirements;
    try {
      reservation = await limits.reserve(tool, BigInt(selectedRequirements.amount), account.address);
    } catch (error) {
      if (!(error instanceof SpendRefused)) throw error;
      refusal = error;
      return { abort: true, reason: error.message };
    }
  });
  // A payment identifier (x402's payment-identifier extension, when the gateway declares it) makes
  // the paid call safe to send again: the gateway answers a repeat with the stored result.
  const withIdentifier: PaymentRequired = { ...paymentRequired, extensions: appendPaymentIdentifierToExtensions({ ...structuredClone(paymentRequired.extensions ?? {}) }) };
  try {
    const payload = await client.createPaymentPayload(withIdentifier);
    if (!reservation || !requirements) throw new Error('the x402 client signed without running its before-payment hook');
    return { payload, requirements, reservation };
  } catch (error) {
    await reservation?.release();
    if (refusal) throw refusal;
    throw explainFailure(error, paymentRequired, tool, cap);
  }
}

/** Runs the same selection and checks as signWithinCaps, then stops before signing: nothing is signed or reserved. */
export async function previewPayment(paymentRequired: PaymentRequired, tool: GatewayTool, account: { address: string }, limits: SpendLimits): Promise<PaymentPreview> {
  const cap = limits.perCallCap(tool);
  // The preview never signs: a signer that refuses proves it.
  const refusingSigner = {
    address: account.address,
    signTypedData: async () => {
      throw new Error('a dry run signs nothing');
    },
  } as unknown as LocalAccount;
  const client = officialClient(tool, cap, refusingSigner);
  let selected: PaymentRequirements | undefined;
  let refusal: Error | undefined;
  client.onBeforePaymentCreation(async ({ selectedRequirements }) => {
    selected = selectedRequirements;
    try {
      await limits.check(tool, BigInt(selectedRequirements.amount));
    } catch (error) {
      refusal = error as Error;
    }
    return { abort: true, reason: 'dry run' };
  });
  try {
    await client.createPaymentPayload(paymentRequired);
  } catch (error) {
    if (refusal) throw refusal;
    if (!selected) throw explainFailure(error, paymentRequired, tool, cap);
  }
  if (!selected) throw new Error('the x402 client chose no payment terms');
  const chainId = Number(selected.network.split(':')[1]);
  return {
    requirements: selected,
    domain: { name: String(selected.extra?.name), version: String(selected.extra?.version), chainId, verifyingContract: selected.asset },
    authorization: {
      from: account.address,
      to: selected.payTo,
      value: `${selected.amount} (${formatUsdc(BigInt(selected.amount))} USDC)`,
      validAfter: '0',
      validBefore: `now + ${selected.maxTimeoutSeconds} s`,
      nonce: '32 random bytes, chosen when signing',
    },
  };
}
