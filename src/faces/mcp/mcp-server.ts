// One low-level MCP server per request (stateless Streamable HTTP) or per legacy SSE session: the
// tool listings are precomputed, so building one costs little. tools/list, initialize and ping are
// free; tools/call goes through the payment gate.
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ErrorCode, ListToolsRequestSchema, McpError, SetLevelRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { Tool, ToolContext } from '../../catalog/tool.ts';
import type { PaymentGate } from '../../payments/gate.ts';
import { mcpBazaar } from '../discovery/bazaar.ts';
import { mcpServerVersion } from '../../version.ts';
import { paymentFromHeaders } from '../http/payment-headers.ts';
import { mcpResult } from './mcp-results.ts';
import { mcpToolListing } from './mcp-tool-listing.ts';

export interface McpFace {
  tools: ReadonlyMap<string, Tool>;
  listings: McpTool[];
  extensions: ReadonlyMap<string, Record<string, unknown>>;
  gate: PaymentGate;
}

export function mcpFace(catalog: readonly Tool[], gate: PaymentGate): McpFace {
  return {
    tools: new Map(catalog.map((t) => [t.name, t])),
    listings: catalog.map(mcpToolListing),
    extensions: new Map(catalog.map((t) => [t.name, mcpBazaar(t)])),
    gate,
  };
}

/** A payment from `_meta` (object or base64 string; "x402/payment" or the older "x402.payment") or from the HTTP headers. */
function paymentOf(meta: Record<string, unknown> | undefined, headers: Record<string, string | string[] | undefined> | undefined): unknown {
  return meta?.['x402/payment'] ?? meta?.['x402.payment'] ?? (headers ? paymentFromHeaders(headers) : undefined);
}

export function createMcpServer(face: McpFace, caller: ToolContext['caller']): Server {
  const server = new Server(
    { name: 'toolgate', title: 'toolgate: pay-per-call tools for agents', version: mcpServerVersion },
    {
      capabilities: { tools: { listChanged: false }, logging: {} },
      instructions:
        'Every tool is paid per call in USDC with x402 v2. Call a tool without payment to get its PaymentRequired ' +
        '(isError result, structuredContent); retry with the signed PaymentPayload in params._meta["x402/payment"].',
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: face.listings }));
  // The level is accepted; tools log nothing to the client at any level yet.
  server.setRequestHandler(SetLevelRequestSchema, async () => ({}));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args, _meta } = request.params;
    const tool = face.tools.get(name);
    if (!tool) throw new McpError(ErrorCode.InvalidParams, `Unknown tool "${name}". tools/list names the ${face.tools.size} tools.`);
    const outcome = await face.gate.handle({
      toolName: tool.name,
      price: tool.price,
      input: tool.input,
      handler: tool.handler?.bind(tool),
      rawInput: args ?? {},
      payment: paymentOf(_meta as Record<string, unknown> | undefined, extra.requestInfo?.headers),
      resource: { url: `mcp://tool/${tool.name}`, description: tool.description, mimeType: 'application/json' },
      extensions: face.extensions.get(tool.name),
      caller,
      ...(tool.timeoutMs ? { timeoutMs: tool.timeoutMs } : {}),
      signal: extra.signal,
      face: 'mcp',
    });
    return mcpResult(outcome);
  });
  return server;
}
