// How a tool's example input looks as an HTTP request: HTTP names, in the query or a JSON body.
import type { HttpRoute, Tool } from '../../catalog/tool.ts';

export interface ExampleRequest {
  method: HttpRoute['method'];
  /** Path with the query string, for GET. */
  pathWithQuery: string;
  /** JSON body, for POST. */
  body?: Record<string, unknown>;
}

/** The route's example as a request; `input` (MCP names) replaces the example when given. */
export function exampleRequest(tool: Tool, route: HttpRoute, input?: Readonly<Record<string, unknown>>): ExampleRequest {
  const example = input ?? (route.input ? (route.example ?? {}) : tool.example);
  const renamed = Object.fromEntries(Object.entries(example).map(([key, value]) => [route.rename?.[key] ?? key, value]));
  if (route.method === 'POST') return { method: 'POST', pathWithQuery: route.path, body: renamed };
  const query = new URLSearchParams(Object.entries(renamed).map(([key, value]) => [key, String(value)])).toString();
  return { method: 'GET', pathWithQuery: query ? `${route.path}?${query}` : route.path };
}
