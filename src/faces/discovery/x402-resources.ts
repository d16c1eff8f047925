// GET /.well-known/x402: every paid resource with what it accepts, in the shape of the x402
// discovery list (x402 v2 §8: items of { resource, type, x402Version, accepts, lastUpdated, metadata }).
import { exampleRequest } from '../http/http-example.ts';
import { httpBazaar, mcpBazaar } from './bazaar.ts';
import type { DocumentContext } from './openapi.ts';

/** `lastUpdated`: Unix time in seconds (x402 v2 §8.2) when the catalogue was loaded, i.e. when this process started. */
export function x402ResourceList(context: DocumentContext, lastUpdated: number) {
  const items = context.catalog.flatMap((tool) => {
    const accepts = context.requirements(tool.price);
    const http = tool.http.map((route) => ({
      // A GET is listed with its example input, so the URL answers 402 as written (indexers fetch it
      // to confirm it is paid; the bare path would be refused 400 for its missing input, for free).
      resource: `${context.publicBaseUrl}${route.method === 'GET' ? exampleRequest(tool, route).pathWithQuery : route.path}`,
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
