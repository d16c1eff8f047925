// The REFERENCE for the MCP bench: a bare MCP server on the official SDK v2 behind Fastify 5, with ONE
// trivial tool, "echo", and no payment. POST /mcp is routed by protocol era the way toolgate routes it
// (2026-07-28 → createMcpHandler in strict mode; 2025 era → a per-request JSON-answering transport),
// so the gap to toolgate is the gateway's own work. Deliberately imports nothing from src/.
// Run as a child process by bench/mcp-run.ts; prints "READY <port>" once it listens on 127.0.0.1.
import {
  ProtocolError,
  ProtocolErrorCode,
  Server,
  WebStandardStreamableHTTPServerTransport,
  createMcpHandler,
  isLegacyRequest,
} from '@modelcontextprotocol/server';
import Fastify, { type FastifyReply, type FastifyRequest } from 'fastify';

export const ECHO_TOOL = 'echo';

function createEchoServer(): Server {
  const server = new Server({ name: 'bench-reference', version: '1.0.0' }, { capabilities: { tools: { listChanged: false } } });
  server.setRequestHandler('tools/list', async () => ({
    tools: [
      {
        name: ECHO_TOOL,
        description: 'Returns its input text.',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } } },
      },
    ],
  }));
  server.setRequestHandler('tools/call', async (request) => {
    const { name, arguments: args } = request.params;
    if (name !== ECHO_TOOL) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool "${name}"`);
    const text = typeof args?.text === 'string' ? args.text : '';
    return { content: [{ type: 'text', text }] };
  });
  return server;
}

/** The SDK's handlers are fetch-shaped: a web Request without a body (Fastify has parsed it already). */
function webRequestOf(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined || name === 'content-length' || name === 'transfer-encoding') continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  return new Request(`http://${request.headers.host ?? 'localhost'}${request.url}`, { method: request.method, headers });
}

/** 2025 era: one server and one stateless, JSON-answering transport per request, closed with the reply. */
async function serveLegacyEra(webRequest: Request, body: unknown, reply: FastifyReply): Promise<Response> {
  const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  const server = createEchoServer();
  reply.raw.once('close', () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  return transport.handleRequest(webRequest, { parsedBody: body });
}

async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  const modernEra = createMcpHandler(() => createEchoServer(), { legacy: 'reject', responseMode: 'auto' });
  app.addHook('onClose', async () => modernEra.close());
  app.post('/mcp', async (request, reply) => {
    const webRequest = webRequestOf(request);
    const response = (await isLegacyRequest(webRequest, request.body))
      ? await serveLegacyEra(webRequest, request.body, reply)
      : await modernEra.fetch(webRequest, { parsedBody: request.body });
    return reply.send(response);
  });
  await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT ?? 0) });
  const address = app.server.address();
  console.log(`READY ${typeof address === 'object' && address ? address.port : 0}`);
  process.once('SIGTERM', () => {
    void app.close().then(() => process.exit(0));
  });
}

if (process.argv[1]?.endsWith('mcp-reference-server.ts')) {
  main().catch((error: unknown) => {
    console.error('mcp-reference-server failed:', error);
    process.exit(1);
  });
}
