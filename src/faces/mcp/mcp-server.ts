// One low-level MCP server per request (Streamable HTTP, both protocol eras) or per legacy SSE
// session. The tool listings are precomputed, so building one costs little. tools/list,
// initialize, server/discover and ping are free; tools/call goes through the payment gate.
import { ProtocolError, ProtocolErrorCode, Server, type Tool as McpTool } from '@modelcontextprotocol/server';
import type { Tool } from '../../catalog/tool.ts';
import type { GateCall, PaymentGate } from '../../payments/gate.ts';
import { mcpBazaar } from '../discovery/bazaar.ts';
import { mcpServerVersion } from '../../version.ts';
import { paymentFromHeaders } from '../http/payment-headers.ts';
import { currentCaller } from './mcp-caller.ts';
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
function paymentOf(meta: Record<string, unknown> | undefined, headers: Headers | undefined): unknown {
  const fromMeta = meta?.['x402/payment'] ?? meta?.['x402.payment'];
  if (fromMeta !== undefined || !headers) return fromMeta;
  return paymentFromHeaders({ 'payment-signature': headers.get('payment-signature') ?? undefined, 'x-payment': headers.get('x-payment') ?? undefined });
}

// The catalogue is fixed for the life of the process: 2026-07-28 clients may cache the listing.
const LISTING_CACHE = { ttlMs: 300_000, cacheScope: 'public' } as const;

export function createMcpServer(face: McpFace): Server {
  const server = new Server(
    { name: 'toolgate', title: 'toolgate: pay-per-call tools for agents', version: mcpServerVersion },
    {
      capabilities: { tools: { listChanged: false }, logging: {} },
      instructions:
        'Every tool is paid per call in USDC with x402 v2. Call a tool without payment to get its PaymentRequired ' +
        '(isError result, structuredContent); retry with the signed PaymentPayload in params._meta["x402/payment"].',
      cacheHints: { 'tools/list': LISTING_CACHE, 'server/discover': LISTING_CACHE },
    },
  );
  server.setRequestHandler('tools/list', async () => ({ tools: face.listings }));
  // The level is accepted; tools log nothing to the client at any level yet.
  server.setRequestHandler('logging/setLevel', async () => ({}));
  server.setRequestHandler('tools/call', async (request, ctx) => {
    const { name, arguments: args, _meta } = request.params;
    const tool = face.tools.get(name);
    if (!tool) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${name}". tools/list names the ${face.tools.size} tools.`);
    const outcome = await face.gate.handle({
      toolName: tool.name,
      price: tool.price,
      input: tool.input,
      handler: tool.handler?.bind(tool),
      precheck: tool.precheck?.bind(tool) as GateCall['precheck'],
      rawInput: args ?? {},
      payment: paymentOf(_meta as Record<string, unknown> | undefined, ctx.http?.req?.headers),
      resource: { url: `mcp://tool/${tool.name}`, description: tool.description, mimeType: 'application/json' },
      extensions: face.extensions.get(tool.name),
      caller: currentCaller(),
      ...(tool.timeoutMs ? { timeoutMs: tool.timeoutMs } : {}),
      reachesOutside: tool.annotations.openWorldHint,
      signal: ctx.mcpReq.signal,
      face: 'mcp',
    });
    return mcpResult(outcome);
  });
  return server;
}
