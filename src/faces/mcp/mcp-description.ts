// The MCP server description the spec lists (GET /.well-known/mcp.json), derived from the catalogue.
import type { Tool } from '../../catalog/tool.ts';
import type { PaymentRequirements } from '@x402/core/types';
import { mcpServerVersion } from '../../version.ts';
import { mcpToolListing } from './mcp-tool-listing.ts';

export function mcpServerDescription(catalog: readonly Tool[], publicBaseUrl: string, requirements: (price: string) => PaymentRequirements[]) {
  return {
    name: 'toolgate',
    version: mcpServerVersion,
    description: 'Pay-per-call tools for autonomous agents, each call paid in USDC with x402 v2.',
    protocol: 'mcp-jsonrpc-2.0',
    protocolVersions: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'],
    transports: [
      { type: 'http-post', url: `${publicBaseUrl}/mcp`, spec: 'streamable-http' },
      { type: 'sse', url: `${publicBaseUrl}/mcp/sse`, messages: `${publicBaseUrl}/mcp/messages` },
    ],
    x402Gated: true,
    x402: { version: 2, paymentMeta: 'x402/payment', responseMeta: 'x402/payment-response', resourceUrl: 'mcp://tool/<name>' },
    toolCount: catalog.length,
    tools: catalog.map((tool) => {
      const listing = mcpToolListing(tool);
      const accepts = requirements(tool.price);
      return {
        name: tool.name,
        title: tool.title,
        description: tool.description,
        price: { amount: tool.price, currency: 'USDC', atomic: accepts[0]?.amount, network: accepts[0]?.network },
        inputSchema: listing.inputSchema,
        annotations: listing.annotations,
        available: tool.handler !== undefined || tool.http.some((r) => r.handler !== undefined),
      };
    }),
  };
}
