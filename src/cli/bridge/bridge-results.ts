// What the bridge answers a desktop MCP client: the gateway's result with the receipt in _meta,
// or an error result that says why nothing was paid (a cap, with how to raise it) or what failed.
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { PaidCall } from '../../client/gateway-session.ts';
import { ToolCallFailed } from '../../client/gateway-session.ts';
import { SpendRefused } from '../../client/spend-refusal.ts';

export const RECEIPT_META = 'toolgate/receipt';

/** The gateway's x402 entries of _meta (its serverInfo and the like describe the gateway, not this server). */
function x402Meta(meta: Record<string, unknown> | undefined): Record<string, unknown> {
  return Object.fromEntries(Object.entries(meta ?? {}).filter(([key]) => key.startsWith('x402/')));
}

export function paidResult(paid: PaidCall): CallToolResult {
  const result = paid.result as CallToolResult;
  return { ...result, _meta: { ...x402Meta(result._meta), ...(paid.receipt ? { [RECEIPT_META]: paid.receipt } : {}) } };
}

export function errorResult(error: unknown): CallToolResult {
  if (error instanceof SpendRefused) {
    return { isError: true, content: [{ type: 'text', text: error.message }], structuredContent: error.toJSON() };
  }
  if (error instanceof ToolCallFailed) {
    const structured = error.result?.structuredContent;
    return {
      isError: true,
      content: [{ type: 'text', text: error.message }],
      structuredContent: { error: 'tool_call_failed', message: error.message, charged: error.charged, ...(structured ? { gateway: structured } : {}) },
      ...(error.result?._meta ? { _meta: x402Meta(error.result._meta) } : {}),
    };
  }
  return { isError: true, content: [{ type: 'text', text: (error as Error).message ?? String(error) }] };
}
