// From a gate outcome to an MCP tool result, per the x402 MCP transport: payment required or
// refused is a tool result with isError, the PaymentRequired object in structuredContent, as the
// text of content[0] and in _meta["x402/error"]; a paid result carries _meta["x402/payment-response"].
import type { CallToolResult } from '@modelcontextprotocol/server';
import { summarizeIssues } from '../../catalog/validate-input.ts';
import type { PaymentRequired } from '@x402/core/types';
import type { GateOutcome } from '../../payments/gate-outcome.ts';
import { withoutChargeNote } from '../../errors/not-charged.ts';

const PAYMENT_RESPONSE = 'x402/payment-response';
const PAYMENT_ERROR = 'x402/error';

function asStructured(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
}

function toolError(body: Record<string, unknown>, text: string): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }], structuredContent: body };
}

/** Payment required or refused: the PaymentRequired as structuredContent, as text and in _meta["x402/error"]. */
function paymentError(paymentRequired: PaymentRequired, meta: Record<string, unknown> = {}): CallToolResult {
  return {
    isError: true,
    structuredContent: paymentRequired as unknown as Record<string, unknown>,
    content: [{ type: 'text', text: JSON.stringify(paymentRequired) }],
    _meta: { [PAYMENT_ERROR]: paymentRequired, ...meta },
  };
}

export function mcpResult(outcome: GateOutcome): CallToolResult {
  switch (outcome.kind) {
    case 'paid':
    case 'refunded': {
      const structured = asStructured(outcome.result);
      return {
        content: [{ type: 'text', text: JSON.stringify(outcome.result) }],
        ...(structured ? { structuredContent: structured } : {}),
        _meta: { [PAYMENT_RESPONSE]: outcome.settlement },
      };
    }
    case 'payment_required':
    case 'invalid_payment':
      return paymentError(outcome.paymentRequired);
    case 'settlement_failed':
      return paymentError(outcome.paymentRequired, { [PAYMENT_RESPONSE]: outcome.settlement });
    case 'invalid_input': {
      const message = `${summarizeIssues(outcome.issues)}. Nothing was charged.`;
      return toolError({ error: 'invalid_input', message, issues: outcome.issues, charged: false }, message);
    }
    case 'not_implemented':
      return toolError({ error: 'not_implemented', message: outcome.message, charged: false }, outcome.message);
    case 'tool_failed':
      return toolError(
        {
          error: outcome.code, message: outcome.message, ...(outcome.details ? { details: outcome.details } : {}),
          ...(outcome.retryAfterSeconds !== undefined ? { retryAfterSeconds: outcome.retryAfterSeconds } : {}), charged: false,
        },
        `${withoutChargeNote(outcome.message)} (${outcome.code}; you were not charged)`,
      );
    case 'unavailable':
    case 'conflict':
      return toolError({ error: outcome.code, message: outcome.message, charged: false }, outcome.message);
  }
}
