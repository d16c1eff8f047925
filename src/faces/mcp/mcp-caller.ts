// Who is calling, carried from the Fastify route into the MCP request handlers. The SDK builds the
// server instance and runs its handlers out of our reach (createMcpHandler); the socket address
// cannot travel in the web Request, so it travels in the async context of the route.
import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyRequest } from 'fastify';
import type { ToolContext } from '../../catalog/tool.ts';

export type McpCaller = ToolContext['caller'];

const store = new AsyncLocalStorage<McpCaller>();

export function callerOf(request: FastifyRequest): McpCaller {
  return { ip: request.ip, ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}), requestId: request.id };
}

export function withCaller<T>(caller: McpCaller, run: () => T): T {
  return store.run(caller, run);
}

/** The caller of the request being handled. */
export function currentCaller(): McpCaller {
  const caller = store.getStore();
  if (!caller) throw new Error('MCP handler ran outside withCaller(): the route must set the caller');
  return caller;
}
