// One conversation with a toolgate gateway on the paying side: its tools from its discovery
// document, calls over its MCP face, and payments signed within the caps. A call that asks for
// payment is signed and sent again with the payment in _meta["x402/payment"]: by payment channel
// (batch-settlement, channel-payment.ts) when the gateway offers one and its deposit fits the
// budgets, else with `exact` (signWithinCaps). The reservation is confirmed, released or kept by
// what the gateway answers.
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { PaymentRequired, PaymentRequirements, SettleResponse } from '@x402/core/types';
import type { LocalAccount } from 'viem';
import type { GatewayAddress } from './gateway-address.ts';
import { findTool, readGatewayTools, type GatewayTool } from './gateway-tools.ts';
import { channelReceipt, receiptOf, type Receipt } from './receipt.ts';
import { channelOffer, isBeyondBalance, isChannelBusy, isCorrective, isForgottenChannel, type ChannelPayer, type ChannelSigned } from './channel-payment.ts';
import { SpendRefused } from './spend-refusal.ts';
import { formatUsdc } from './usdc-amount.ts';
import type { SpendLimits } from './spend-limits.ts';
import { previewPayment, signWithinCaps, type PaymentPreview } from './sign-within-caps.ts';
import { clientVersion } from './client-version.ts';
import { withoutChargeNote } from '../errors/not-charged.ts';

export const PAYMENT_META = 'x402/payment';
export const PAYMENT_RESPONSE_META = 'x402/payment-response';

export interface PaidCall {
  tool: GatewayTool;
  /** The tool's output: structuredContent, or the JSON of its text. */
  output: unknown;
  /** The gateway's MCP result, as it came. */
  result: CallToolResult;
  /** Absent when the gateway did not ask for payment. */
  receipt?: Receipt;
}

export interface DryRun {
  tool: GatewayTool;
  preview: PaymentPreview;
  /** Why a channel was offered but the call would pay with `exact`. */
  fallback?: string;
}

/** A dry run that would pay from a channel: a voucher, or a deposit first. */
export interface ChannelDryRun {
  tool: GatewayTool;
  channel: { id: string; price: bigint; deposit?: bigint; charged: bigint; balance: bigint };
}

/** `auto`: by channel when the gateway offers one and its deposit fits the budgets, else exact. */
export type SchemeChoice = 'exact' | 'batch-settlement' | 'auto';

/** The gateway answered without a result; `charged` says whether money may have moved. */
export class ToolCallFailed extends Error {
  constructor(
    message: string,
    readonly result: CallToolResult | undefined,
    readonly charged: 'no' | 'unknown',
  ) {
    super(message);
    this.name = 'ToolCallFailed';
  }
}

export const isPaymentRequired = (value: unknown): value is PaymentRequired =>
  typeof value === 'object' && value !== null && (value as { x402Version?: unknown }).x402Version === 2 && Array.isArray((value as { accepts?: unknown }).accepts);

function outputOf(result: CallToolResult): unknown {
  if (result.structuredContent !== undefined) return result.structuredContent;
  const text = result.content.find((c) => c.type === 'text');
  if (!text || text.type !== 'text') return undefined;
  try {
    return JSON.parse(text.text) as unknown;
  } catch {
    return text.text;
  }
}

/** The gateway's reason, without its own note on the charge: the caller of this says what was charged, once. */
function failureMessage(result: CallToolResult): string {
  const body = result.structuredContent as { error?: unknown; message?: unknown } | undefined;
  if (isPaymentRequired(body)) return `payment refused by the gateway: ${body.error ?? 'no reason given'}`;
  if (typeof body?.message === 'string') return `${withoutChargeNote(body.message).replace(/\.$/, '')}${typeof body.error === 'string' ? ` (${body.error})` : ''}`;
  const text = result.content.find((c) => c.type === 'text');
  return text && text.type === 'text' ? withoutChargeNote(text.text) : 'the tool failed';
}

const notCharged = (result: CallToolResult) => `${failureMessage(result)}; you were not charged`;

/** Why a call pays with exact although a channel is offered: its deposit does not fit a budget. */
const depositRefused = (refusal: SpendRefused): string =>
  `a channel deposit of ${formatUsdc(refusal.price)} USDC does not fit the ${refusal.cap === 'per-day' ? 'daily' : 'session'} budget (${formatUsdc(refusal.spent)} of ${formatUsdc(refusal.limit)} USDC used), so this call paid with exact`;

/** How long a repeated payment waits for the first attempt still running on the gateway. */
const IN_PROGRESS_WAITS = 15;
const IN_PROGRESS_WAIT_MS = 2_000;

/** The gateway's answer to a payment identifier whose first call has not finished yet. */
const inProgress = (result: CallToolResult): boolean =>
  result.isError === true && (result.structuredContent as { error?: unknown } | undefined)?.error === 'payment_identifier_in_progress';

export interface GatewaySessionOptions {
  address: GatewayAddress;
  limits: SpendLimits;
  /** The payer, resolved when first needed (a keystore prompts only then). */
  payer: (tools: () => Promise<readonly GatewayTool[]>) => Promise<LocalAccount>;
  fetch?: typeof fetch;
  /** Default `auto`. */
  scheme?: SchemeChoice;
  /** Pays by channel; without it, every call pays with exact. */
  channels?: ChannelPayer;
}

/** How long a call waits for its channel while another process's request holds it (channel_busy). */
const CHANNEL_BUSY_WAIT_MS = 60_000;
/** Corrective 402s taken in one call: other processes paying the same channel move its total meanwhile. */
const CHANNEL_RESYNCS = 10;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export class GatewaySession {
  private toolsRead: Promise<GatewayTool[]> | undefined;
  private connection: Promise<Client> | undefined;
  private payerResolved: Promise<LocalAccount> | undefined;

  constructor(private readonly options: GatewaySessionOptions) {}

  get limits(): SpendLimits {
    return this.options.limits;
  }

  tools(): Promise<GatewayTool[]> {
    this.toolsRead ??= readGatewayTools(this.options.address.baseUrl, this.options.fetch);
    this.toolsRead.catch(() => (this.toolsRead = undefined));
    return this.toolsRead;
  }

  payer(): Promise<LocalAccount> {
    this.payerResolved ??= this.options.payer(() => this.tools());
    this.payerResolved.catch(() => (this.payerResolved = undefined));
    return this.payerResolved;
  }

  private mcp(): Promise<Client> {
    this.connection ??= (async () => {
      const client = new Client({ name: 'toolgate-client', version: clientVersion }, { versionNegotiation: { mode: 'auto' } });
      const transport = new StreamableHTTPClientTransport(new URL(this.options.address.mcpUrl), this.options.fetch ? { fetch: this.options.fetch } : undefined);
      try {
        await client.connect(transport);
      } catch (error) {
        throw new Error(`cannot open MCP at ${this.options.address.mcpUrl}: ${(error as Error).message}`);
      }
      return client;
    })();
    this.connection.catch(() => (this.connection = undefined));
    return this.connection;
  }

  /** Asks the gateway for the tool's terms (an unpaid call) without paying: a free tool would run. */
  private async firstAttempt(name: string, input: Record<string, unknown>): Promise<{ tool: GatewayTool; first: CallToolResult }> {
    const tool = findTool(await this.tools(), name);
    const mcp = await this.mcp();
    const first = (await mcp.callTool({ name, arguments: input })) as CallToolResult;
    return { tool, first };
  }

  /** Shows the price and what would be signed; signs nothing. */
  async dryRun(name: string, input: Record<string, unknown>): Promise<DryRun | ChannelDryRun | PaidCall> {
    const { tool, first } = await this.firstAttempt(name, input);
    if (!first.isError) return { tool, output: outputOf(first), result: first };
    if (!isPaymentRequired(first.structuredContent)) throw new ToolCallFailed(notCharged(first), first, 'no');
    const payer = await this.payer();
    const choice = this.channelChoice(first.structuredContent, tool);
    let fallback = choice.fallback;
    if (choice.offer && this.options.channels) {
      try {
        const plan = await this.options.channels.preview(choice.offer, tool, payer);
        return {
          tool,
          channel: {
            id: plan.channelId, price: BigInt(choice.offer.amount), charged: plan.state?.charged ?? 0n, balance: plan.state?.balance ?? 0n,
            ...(plan.deposit !== undefined ? { deposit: plan.deposit } : {}),
          },
        };
      } catch (error) {
        if (!(error instanceof SpendRefused) || error.cap === 'per-call' || this.scheme !== 'auto') throw error;
        fallback = depositRefused(error);
      }
    }
    return { tool, preview: await previewPayment(first.structuredContent, tool, payer, this.options.limits), ...(fallback ? { fallback } : {}) };
  }

  private get scheme(): SchemeChoice {
    return this.options.scheme ?? 'auto';
  }

  /** The channel offer to pay with, or why there is none (a refusal when --scheme batch-settlement cannot be honoured). */
  private channelChoice(paymentRequired: PaymentRequired, tool: GatewayTool): { offer?: PaymentRequirements; fallback?: string } {
    if (this.scheme === 'exact') return {};
    const offer = channelOffer(paymentRequired, tool);
    if (offer && this.options.channels) return { offer };
    if (this.scheme === 'batch-settlement') {
      throw new Error(`the gateway offers no payment channel (batch-settlement) for ${tool.name} on ${tool.network}; pay with --scheme exact (or scheme: 'exact')`);
    }
    return {};
  }

  /** Calls the tool, paying within the caps. Throws SpendRefused (nothing signed) or ToolCallFailed. */
  async call(name: string, input: Record<string, unknown>): Promise<PaidCall> {
    const { tool, first } = await this.firstAttempt(name, input);
    if (!first.isError) return { tool, output: outputOf(first), result: first };
    if (!isPaymentRequired(first.structuredContent)) throw new ToolCallFailed(notCharged(first), first, 'no');
    const payer = await this.payer();
    const choice = this.channelChoice(first.structuredContent, tool);
    if (choice.offer && this.options.channels) {
      const byChannel = await this.payByChannel(this.options.channels, name, input, tool, first.structuredContent, choice.offer, payer);
      if ('paid' in byChannel) return byChannel.paid;
      return this.payExact(name, input, tool, first.structuredContent, payer, byChannel.fallback);
    }
    return this.payExact(name, input, tool, first.structuredContent, payer, choice.fallback);
  }

  /**
   * Pays from the payer's channel with this gateway, one call at a time per channel in this
   * process. The gateway serves one request per channel: `channel_busy` (another process's call)
   * is waited out and the payment signed again; a corrective 402 resyncs the client's record and
   * signs again. Returns a fallback reason when the deposit does not fit the budgets (scheme auto).
   */
  private async payByChannel(
    channels: ChannelPayer, name: string, input: Record<string, unknown>, tool: GatewayTool,
    paymentRequired: PaymentRequired, offer: PaymentRequirements, payer: LocalAccount,
  ): Promise<{ paid: PaidCall } | { fallback: string }> {
    const channelId = channels.channelId(payer, offer);
    return channels.exclusive(channelId, async () => {
      const deadline = Date.now() + CHANNEL_BUSY_WAIT_MS;
      let resyncs = 0;
      let wait = 50;
      for (;;) {
        let signed: ChannelSigned;
        try {
          signed = await channels.sign(paymentRequired, offer, tool, payer);
        } catch (error) {
          if (error instanceof SpendRefused && error.cap !== 'per-call' && this.scheme === 'auto') return { fallback: depositRefused(error) };
          throw error;
        }
        let paid: CallToolResult;
        try {
          paid = (await (await this.mcp()).callTool({ name, arguments: input, _meta: { [PAYMENT_META]: signed.payload } })) as CallToolResult;
        } catch (error) {
          await signed.deposit?.reservation.keep();
          throw new ToolCallFailed(
            `no answer to the paid call (${(error as Error).message}); ${signed.deposit ? 'the deposit may have been made, so it stays counted in the spend record' : "the voucher may have been charged from the channel's deposit (counted when it was made)"}`,
            undefined,
            'unknown',
          );
        }
        const settlement = paid._meta?.[PAYMENT_RESPONSE_META] as SettleResponse | undefined;
        if (!paid.isError && settlement?.success) {
          await channels.settled(signed, settlement, tool, payer);
          const state = await channels.state(channelId);
          const receipt = channelReceipt(settlement, BigInt(offer.amount), offer.payTo, payer.address, {
            id: channelId, charged: state?.charged ?? 0n, balance: state?.balance ?? 0n, ...(signed.deposit ? { deposit: signed.deposit.amount } : {}),
          });
          return { paid: { tool, output: outputOf(paid), result: paid, receipt } };
        }
        if (paid.isError && settlement?.errorReason === 'settlement_pending') {
          await signed.deposit?.reservation.keep();
          throw new ToolCallFailed(`the channel deposit is pending (transaction ${settlement.transaction}); the result was withheld and the deposit stays counted until it resolves`, paid, 'unknown');
        }
        await signed.deposit?.reservation.release();
        const again = paid.structuredContent;
        if (paid.isError && isPaymentRequired(again)) {
          if (isChannelBusy(again) && Date.now() < deadline) {
            await sleep(wait);
            wait = Math.min(wait * 2, 1_000);
            continue;
          }
          // Checked before a resync, which would take the chain's balance without telling the budgets.
          const back = (isBeyondBalance(again) || isForgottenChannel(again)) && resyncs < CHANNEL_RESYNCS ? await channels.balanceShrank(signed, payer) : undefined;
          if (back !== undefined) {
            // The gateway refunded the channel on its own (idle): the budgets get it back, the book closes it; the call tops it up.
            await this.options.limits.refunded(channelId, back);
            await channels.options.book.refunded(channelId, back, undefined, true);
            resyncs += 1;
            continue;
          }
          if (isCorrective(again) && resyncs < CHANNEL_RESYNCS && (await channels.resync(signed, again, payer))) {
            resyncs += 1;
            continue;
          }
        }
        if (paid.isError) throw new ToolCallFailed(notCharged(paid), paid, 'no');
        // A result without a settlement response: the voucher may have been charged; the client's record resyncs on the next call.
        return { paid: { tool, output: outputOf(paid), result: paid } };
      }
    });
  }

  private async payExact(name: string, input: Record<string, unknown>, tool: GatewayTool, paymentRequired: PaymentRequired, payer: LocalAccount, fallback?: string): Promise<PaidCall> {
    const signed = await signWithinCaps(paymentRequired, tool, payer, this.options.limits);
    const sendPaid = async () => (await (await this.mcp()).callTool({ name, arguments: input, _meta: { [PAYMENT_META]: signed.payload } })) as CallToolResult;
    let paid: CallToolResult;
    let resent = false;
    try {
      paid = await sendPaid();
    } catch (first) {
      resent = true;
      // The answer was lost (connection, timeout). The payment carries a payment identifier, so the
      // same payment sent again gets the stored result if the first attempt settled, and runs once otherwise.
      try {
        paid = await sendPaid();
        // The first attempt may still be running on the gateway: it says so, and its result is stored.
        for (let wait = 0; inProgress(paid) && wait < IN_PROGRESS_WAITS; wait++) {
          await new Promise((resolve) => setTimeout(resolve, IN_PROGRESS_WAIT_MS));
          paid = await sendPaid();
        }
      } catch (error) {
        await signed.reservation.keep();
        throw new ToolCallFailed(`no answer to the paid call (${(first as Error).message}; again: ${(error as Error).message}); the payment may have been settled, so it stays counted in the spend record`, undefined, 'unknown');
      }
      if (inProgress(paid)) {
        await signed.reservation.keep();
        throw new ToolCallFailed(`the paid call is still running on the gateway after ${(IN_PROGRESS_WAITS * IN_PROGRESS_WAIT_MS) / 1000} s; the payment may be settled, so it stays counted in the spend record`, paid, 'unknown');
      }
    }
    const settlement = paid._meta?.[PAYMENT_RESPONSE_META] as SettleResponse | undefined;
    const amount = BigInt(signed.requirements.amount);
    if (!paid.isError && settlement?.success) {
      await signed.reservation.confirm(settlement.transaction);
      return { tool, output: outputOf(paid), result: paid, receipt: receiptOf(settlement, amount, signed.requirements.payTo, fallback) };
    }
    if (paid.isError && settlement?.errorReason === 'settlement_pending') {
      await signed.reservation.keep();
      throw new ToolCallFailed(`the settlement is pending (transaction ${settlement.transaction}); the result was withheld and the payment stays counted until it resolves`, paid, 'unknown');
    }
    if (paid.isError && resent && isPaymentRequired(paid.structuredContent)) {
      // The repeat of a payment whose first answer was lost is refused as a payment: the first
      // attempt may have used the authorization, so the amount stays counted.
      await signed.reservation.keep();
      throw new ToolCallFailed(`${failureMessage(paid)}; the first attempt's answer was lost, so the payment may have been settled and stays counted in the spend record`, paid, 'unknown');
    }
    if (paid.isError) {
      await signed.reservation.release();
      throw new ToolCallFailed(notCharged(paid), paid, 'no');
    }
    // A result without a settlement response: money may have moved.
    await signed.reservation.keep();
    return { tool, output: outputOf(paid), result: paid };
  }

  /**
   * Asks the gateway for a cooperative refund of the unspent part of this payer's channel with it
   * (x402 batch-settlement `refund` payload, sent in _meta["x402/payment"] of a call to a tool
   * with its documented example input, as the SDK sends it to any protected route). On success the
   * client's record of the channel goes, the budgets get the refund back, the book records it.
   */
  async refundChannel(channelId?: string): Promise<{ channelId: string; refunded: bigint; transaction: string }> {
    const channels = this.options.channels;
    if (!channels) throw new Error('payment channels are off (--scheme exact)');
    const payer = await this.payer();
    const tools = await this.tools();
    // The gateway checks a call's input before its payment: the request rides on a documented example input.
    const carrier = tools.find((t) => t.channelOffer && t.example) ?? tools.find((t) => t.channelOffer && (t.inputSchema.required ?? []).length === 0);
    if (!carrier?.channelOffer) throw new Error('the gateway offers no payment channel (batch-settlement) on a tool with an example input: no way to send a refund request');
    const offer = carrier.channelOffer;
    const id = channels.channelId(payer, offer);
    if (channelId !== undefined && channelId.toLowerCase() !== id) throw new Error(`${channelId} is not the channel of ${payer.address} with this gateway (that is ${id})`);
    const state = await channels.state(id);
    if (!state || state.balance <= state.charged) throw new Error(`nothing to refund on channel ${id}: ${state ? `${formatUsdc(state.charged)} of ${formatUsdc(state.balance)} USDC charged` : 'no deposit recorded on this machine'}`);
    const refundable = state.balance - state.charged;
    const paymentRequired: PaymentRequired = { x402Version: 2, resource: { url: `mcp://tool/${carrier.name}`, description: carrier.description, mimeType: 'application/json' }, accepts: [offer] };
    const payload = await channels.refundPayload(paymentRequired, offer, payer);
    const answer = (await (await this.mcp()).callTool({ name: carrier.name, arguments: carrier.example ?? {}, _meta: { [PAYMENT_META]: payload } })) as CallToolResult;
    const settlement = answer._meta?.[PAYMENT_RESPONSE_META] as SettleResponse | undefined;
    if (!settlement?.success) {
      const reason = isPaymentRequired(answer.structuredContent) ? answer.structuredContent.error : settlement?.errorReason ?? failureMessage(answer);
      throw new Error(`the gateway did not refund channel ${id}: ${reason ?? 'no reason given'}; its ${formatUsdc(refundable)} USDC stay in the channel and counted in the spend record (the payer can also withdraw on chain after the channel's withdraw delay)`);
    }
    // The gateway says what came back (toolgate's: the amount of the Refunded event); else what this machine expected.
    const refunded = /^\d+$/.test(settlement.amount ?? '') ? BigInt(settlement.amount!) : refundable;
    await channels.refundSettled(payload, offer, settlement, payer);
    await this.options.limits.refunded(id, refunded);
    await channels.options.book.refunded(id, refunded, settlement.transaction, refunded >= refundable);
    return { channelId: id, refunded, transaction: settlement.transaction };
  }

  /** The gateway's own tools/list (titles, descriptions with prices, input schemas, annotations). */
  async listTools(): Promise<Awaited<ReturnType<Client['listTools']>>['tools']> {
    const mcp = await this.mcp();
    return (await mcp.listTools()).tools;
  }

  async close(): Promise<void> {
    const connection = this.connection;
    this.connection = undefined;
    if (connection) await connection.then((c) => c.close()).catch(() => undefined);
  }
}
