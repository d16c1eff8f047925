// MCP over HTTP: Streamable HTTP on POST /mcp (stateless: any instance can answer any request) and
// the legacy HTTP+SSE transport on GET /mcp/sse + POST /mcp/messages?sessionId=…
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { McpFace } from './mcp-server.ts';
import { createMcpServer } from './mcp-server.ts';
import type { OriginPolicy } from './origin-guard.ts';
import { refuseOrigin } from './origin-guard.ts';

export interface McpRoutesOptions {
  face: McpFace;
  policy: OriginPolicy;
}

/** Legacy SSE sessions open on this instance; exposed for leak checks. */
export type SseSessions = ReadonlyMap<string, SSEServerTransport>;

function jsonRpcError(reply: FastifyReply, status: number, code: number, message: string): FastifyReply {
  return reply.code(status).header('content-type', 'application/json').send({ jsonrpc: '2.0', id: null, error: { code, message } });
}

export function registerMcpRoutes(app: FastifyInstance, options: McpRoutesOptions): SseSessions {
  const sessions = new Map<string, SSEServerTransport>();
  const callerOf = (request: FastifyRequest) => ({
    ip: request.ip,
    ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}),
  });

  void app.register(async (scope) => {
    scope.addHook('onRequest', async (request, reply) => {
      const refusal = refuseOrigin(options.policy, request.headers.origin, request.headers.host);
      if (refusal) return jsonRpcError(reply, 403, -32000, `Forbidden: ${refusal}`);
      return undefined;
    });
    scope.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return jsonRpcError(reply, 413, -32600, 'Request body too large');
      if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') return jsonRpcError(reply, 415, -32600, 'Unsupported Media Type: Content-Type must be application/json');
      if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || /JSON/.test(error.message)) {
        return jsonRpcError(reply, 400, -32700, 'Parse error: Invalid JSON');
      }
      return jsonRpcError(reply, 500, -32603, 'Internal error');
    });

    scope.post('/mcp', async (request, reply) => {
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
      const server = createMcpServer(options.face, callerOf(request));
      reply.hijack();
      reply.raw.on('close', () => {
        void transport.close();
        void server.close();
      });
      await server.connect(transport);
      await transport.handleRequest(request.raw, reply.raw, request.body);
    });
    const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
      reply.code(405).header('allow', 'POST').send({ jsonrpc: '2.0', id: null, error: { code: -32000, message: 'Method not allowed: this stateless server takes POST /mcp only' } });
    scope.get('/mcp', notAllowed);
    scope.delete('/mcp', notAllowed);

    scope.get('/mcp/sse', async (request, reply) => {
      reply.hijack();
      const transport = new SSEServerTransport('/mcp/messages', reply.raw);
      const server = createMcpServer(options.face, callerOf(request));
      sessions.set(transport.sessionId, transport);
      reply.raw.on('close', () => {
        sessions.delete(transport.sessionId);
        void server.close();
      });
      await server.connect(transport);
    });
    scope.post('/mcp/messages', async (request, reply) => {
      const sessionId = (request.query as { sessionId?: string }).sessionId ?? '';
      const transport = sessions.get(sessionId);
      if (!transport) return jsonRpcError(reply, 404, -32001, `Session not found: "${sessionId}". Open a new one with GET /mcp/sse.`);
      reply.hijack();
      await transport.handlePostMessage(request.raw, reply.raw, request.body);
      return reply;
    });
  });
  return sessions;
}
