// GET /.well-known/x402: every paid resource with what it accepts, in the shape of the x402
// discovery list (items of { resource, type, x402Version, accepts, lastUpdated, metadata }).
import { httpBazaar, mcpBazaar } from './bazaar.ts';
import type { DocumentContext } from './openapi.ts';

export function x402ResourceList(context: DocumentContext, lastUpdated: string) {
  const items = context.catalog.flatMap((tool) => {
    const accepts = context.requirements(tool.price);
    const http = tool.http.map((route) => ({
      resource: `${context.publicBaseUrl}${route.path}`,
      type: 'http',
      x402Version: 2,
      accepts,
      lastUpdated,
      metadata: { method: route.method, name: tool.name, title: tool.title, description: route.summary ?? tool.description, price: tool.price, extensions: httpBazaar(tool, route) },
    }));
    const mcp = {
      resource: `mcp://tool/${tool.name}`,
      type: 'mcp',
      x402Version: 2,
      accepts,
      lastUpdated,
      metadata: { server: `${context.publicBaseUrl}/mcp`, name: tool.name, title: tool.title, description: tool.description, price: tool.price, extensions: mcpBazaar(tool) },
    };
    return [...http, mcp];
  });
  return { x402Version: 2, items, pagination: { limit: items.length, offset: 0, total: items.length } };
}
