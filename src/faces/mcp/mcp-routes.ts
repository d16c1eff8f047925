// MCP over HTTP. POST /mcp speaks Streamable HTTP in both protocol eras, statelessly (any instance
// can answer any request): 2026-07-28 requests (per-request envelope) go to the SDK's
// createMcpHandler, 2025-era requests (initialize handshake, 2025-11-25 and older) to a per-request
// JSON-answering transport. GET /mcp/sse + POST /mcp/messages?sessionId=… is the legacy HTTP+SSE
// transport. The same server factory, and so the same payment gate, serves all three.
import {
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { callerOf, withCaller } from './mcp-caller.ts';
import type { McpFace } from './mcp-server.ts';
import { createMcpServer } from './mcp-server.ts';
import type { OriginPolicy } from './origin-guard.ts';
import { refuseOrigin } from './origin-guard.ts';
import { SseSessionRegistry } from './sse-sessions.ts';
import type { SseLimits, SseSessions } from './sse-sessions.ts';
import { SseServerTransport } from './sse-transport.ts';
import { toWebRequest } from './web-request.ts';

export interface McpRoutesOptions {
  face: McpFace;
  policy: OriginPolicy;
  /** Legacy SSE streams: how many at once, per client, and how long one may sit idle (each holds a server). */
  sse: SseLimits;
}

export type { SseSessions } from './sse-sessions.ts';

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).header('content-type', 'application/json').send({ jsonrpc: '2.0', id: null, error: { code, message } });
}

/** A 2025-era request: one server and one JSON-answering stateless transport, closed when the reply is. */
async function serveLegacyEra(face: McpFace, webRequest: Request, body: unknown, reply: FastifyReply): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = createMcpServer(face);
  reply.raw.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  return transport.handleRequest(webRequest, { parsedBody: body });
}

export function registerMcpRoutes(app: FastifyInstance, options: McpRoutesOptions): SseSessions {
  const sessions = new SseSessionRegistry(options.sse);
  const modernEra = createMcpHandler(() => createMcpServer(options.face), {
    legacy: 'reject',
    responseMode: 'auto',
    onerror: (error) => app.log.debug({ err: error }, 'MCP request refused or failed'),
  });
  app.addHook('onClose', async () => {
    await modernEra.close();
    await sessions.closeAll();
  });

  void app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      const refusal = refuseOrigin(options.policy, request.headers.origin, request.headers.host);
      if (refusal) return jsonRpcError(reply, 403, -32000, `Forbidden: ${refusal}`);
      return undefined;
    });
    scope.setErrorHandler((error: FastifyError, request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return jsonRpcError(reply, 413, -32600, 'Request body too large');
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return jsonRpcError(reply, 415, -32600, 'Unsupported Media Type: Content-Type must be application/json');
      if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || /JSON/.test(error.message)) {
        return jsonRpcError(reply, 400, -32700, 'Parse error: Invalid JSON');
      }
      request.log.error({ err: error }, 'MCP route failed');
      return jsonRpcError(reply, 500, -32603, 'Internal error');
    });

    scope.post('/mcp', async (request, reply) => {
      const webRequest = toWebRequest(request, reply);
      const response = await withCaller(callerOf(request), async () =>
        (await isLegacyRequest(webRequest, request.body))
          ? serveLegacyEra(options.face, webRequest, request.body, reply)
          : modernEra.fetch(webRequest, { parsedBody: request.body }),
      );
      return reply.send(response);
    });
    const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.code(405).header('allow', 'POST').send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed: this stateless server takes POST /mcp only' } });
    scope.get('/mcp', notAllowed);
    scope.delete('/mcp', notAllowed);

    scope.get('/mcp/sse', async (request, reply) => {
      const refusal = sessions.refusal(request.ip);
      if (refusal) {
        reply.header('retry-after', String(refusal.retryAfterSeconds));
        return reply.code(refusal.status).header('content-type', 'application/json')
          .send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: refusal.message, data: { limit: refusal.limit } } });
      }
      reply.hijack();
      const transport = new SseServerTransport('/mcp/messages', reply.raw);
      const server = createMcpServer(options.face);
      sessions.add(transport, request.ip);
      reply.raw.once('close', () => {
        sessions.delete(transport.sessionId);
        void server.close();
      });
      await server.connect(transport);
    });
    scope.post('/mcp/messages', async (request, reply) => {
      const sessionId = (request.query as { sessionId?: string }).sessionId ?? '';
      const transport = sessions.get(sessionId);
      if (!transport) return jsonRpcError(reply, 404, -32001, `Session not found: "${sessionId}". Open a new one with GET /mcp/sse.`);
      sessions.touch(sessionId);
      try {
        withCaller(callerOf(request), () => transport.receive(request.body, toWebRequest(request, reply)));
      } catch {
        return jsonRpcError(reply, 400, -32600, 'Invalid Request: the body is not a JSON-RPC 2.0 message');
      }
      return reply.code(202).type('text/plain').send('Accepted');
    });
  });
  return sessions;
}
