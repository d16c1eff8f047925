// One conversation with a toolgate gateway on the paying side: its tools from its discovery
// document, calls over its MCP face, and payments signed within the caps. A call that asks for
// payment is signed (signWithinCaps) and sent again with the payment in _meta["x402/payment"];
// the reservation is confirmed, released or kept by what the gateway answers.
import { Client, StreamableHTTPClientTransport, type CallToolResult } from '@modelcontextprotocol/client';
import type { PaymentRequired, SettleResponse } from '@x402/core/types';
import type { LocalAccount } from 'viem';
import type { GatewayAddress } from './gateway-address.ts';
import { findTool, readGatewayTools, type GatewayTool } from './gateway-tools.ts';
import { receiptOf, type Receipt } from './receipt.ts';
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
}

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
}

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
  async dryRun(name: string, input: Record<string, unknown>): Promise<DryRun | PaidCall> {
    const { tool, first } = await this.firstAttempt(name, input);
    if (!first.isError) return { tool, output: outputOf(first), result: first };
    if (!isPaymentRequired(first.structuredContent)) throw new ToolCallFailed(notCharged(first), first, 'no');
    const payer = await this.payer();
    return { tool, preview: await previewPayment(first.structuredContent, tool, payer, this.options.limits) };
  }

  /** Calls the tool, paying within the caps. Throws SpendRefused (nothing signed) or ToolCallFailed. */
  async call(name: string, input: Record<string, unknown>): Promise<PaidCall> {
    const { tool, first } = await this.firstAttempt(name, input);
    if (!first.isError) return { tool, output: outputOf(first), result: first };
    if (!isPaymentRequired(first.structuredContent)) throw new ToolCallFailed(notCharged(first), first, 'no');
    const payer = await this.payer();
    const signed = await signWithinCaps(first.structuredContent, tool, payer, this.options.limits);
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
      return { tool, output: outputOf(paid), result: paid, receipt: receiptOf(settlement, amount, signed.requirements.payTo) };
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
