// The MCP face of the catalogue: what tools/list shows, computed once. No outputSchema on purpose:
// the SDK client validates structuredContent against it even on an isError result, so a tool with
// one would make the official client throw on the payment-required answer.
import { z } from 'zod';
import type { Tool as McpTool } from '@modelcontextprotocol/server';
import type { Tool } from '../../catalog/tool.ts';

export function priceSentence(price: string): string {
  return `Price: ${price} USDC per call, paid with x402 (send the payment in params._meta["x402/payment"]).`;
}

export function mcpToolListing(tool: Tool): McpTool {
  const inputSchema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as McpTool['inputSchema'];
  return {
    name: tool.name,
    title: tool.title,
    description: `${tool.description} ${priceSentence(tool.price)}`,
    inputSchema,
    annotations: { title: tool.title, ...tool.annotations },
    _meta: { 'x402/price': { amount: tool.price, currency: 'USDC' } },
  };
}
