// Builds the HTTP application from the catalogue and the payment gate.
import { createServer } from 'node:http';
import type { ServerOptions } from 'node:http';
import Fastify, { LogController } from 'fastify';
import type { FastifyBaseLogger, FastifyError, FastifyInstance } from 'fastify';
import type { Tool } from './catalog/tool.ts';
import { corsHeaders } from './faces/http/payment-headers.ts';
import { requestIdFor } from './faces/http/request-id.ts';
import { registerToolRoutes } from './faces/http/tool-routes.ts';
import { UnpaidFastPath } from './faces/http/unpaid-fast-path.ts';
import { registerDiscoveryRoutes } from './faces/discovery/discovery-routes.ts';
import { registerDashboardRoutes } from './faces/dashboard/dashboard-routes.ts';
import type { ChannelSummary } from './payments/channels/channel-claims.ts';
import { mcpServerDescription } from './faces/mcp/mcp-description.ts';
import { registerMcpRoutes } from './faces/mcp/mcp-routes.ts';
import type { SseSessions } from './faces/mcp/mcp-routes.ts';
import type { SseLimits } from './faces/mcp/sse-sessions.ts';
import { serverTimeoutOptions } from './net/http-timeouts.ts';
import type { HttpTimeouts } from './net/http-timeouts.ts';
import { mcpFace } from './faces/mcp/mcp-server.ts';
import type { OriginPolicy } from './faces/mcp/origin-guard.ts';
import { transportErrorAnswer } from './faces/http/transport-errors.ts';
import type { EthPrice, UpstreamHealth } from './faces/dashboard/dashboard-data.ts';
import type { HealthReport } from './health.ts';
import type { PaymentGate } from './payments/gate.ts';
import type { CallMetrics } from './payments/call-metrics.ts';
import type { PaymentLedger } from './payments/ledger/payment-ledger.ts';
import type { PaymentTerms } from './payments/requirements.ts';

export interface AppOptions {
  catalog: readonly Tool[];
  gate: PaymentGate;
  publicBaseUrl: string;
  maxBodyBytes: number;
  trustedProxies: readonly string[];
  logger: FastifyBaseLogger;
  health: () => Promise<HealthReport>;
  mcpOriginPolicy: OriginPolicy;
  /** How long a client may take to send a request (headers, then the whole of it). */
  httpTimeouts: HttpTimeouts;
  sse: SseLimits;
  /** What the dashboard and the documents read. */
  ledger: PaymentLedger;
  metrics: CallMetrics;
  terms: PaymentTerms;
  facilitatorKind: string;
  /** Unlocks payer addresses and transaction detail on the dashboard; unset on local = open on loopback. */
  dashboardToken: string | undefined;
  prometheus?: { text(): Promise<string>; readonly contentType: string };
  ethPrice?: () => Promise<EthPrice | undefined>;
  upstreams?: () => Promise<UpstreamHealth[]>;
  /** What the payment channels hold (the dashboard), when they are offered. */
  channels?: () => Promise<ChannelSummary>;
}

export interface BuiltApp {
  app: FastifyInstance;
  sseSessions: SseSessions;
}

/** What Fastify's own HTTP/1 server takes from its options (lib/server.js), for ours to take too. */
interface FastifyServerSettings {
  http?: ServerOptions;
  keepAliveTimeout: number;
  connectionTimeout: number;
  maxRequestsPerSocket: number;
}

export function buildApp(options: AppOptions): BuiltApp {
  const fastPath = new UnpaidFastPath();
  // While closing, answers in flight end their connection: a kept-alive socket would otherwise hold
  // the close open for the whole keep-alive timeout after the last answer.
  let closing = false;
  const app = Fastify({
    bodyLimit: options.maxBodyBytes,
    trustProxy: options.trustedProxies.length > 0 ? [...options.trustedProxies] : false,
    loggerInstance: options.logger,
    logController: new LogController({ disableRequestLogging: true }),
    return503OnClosing: true,
    // A caller's own request id is kept when it is a plain token; otherwise one is made.
    requestIdHeader: false,
    genReqId: (request) => requestIdFor(request.headers),
    // Fastify's own HTTP/1 server, with unpaid GETs of tools answered first (unpaid-fast-path.ts).
    serverFactory: (handler, given) => {
      // Fastify has filled in its defaults by now (fastify.js); its types leave them unknown.
      const settings = given as unknown as FastifyServerSettings;
      const server = createServer({ ...settings.http, ...serverTimeoutOptions(options.httpTimeouts) }, (request, response) => {
        if (closing || !fastPath.serve(request, response)) handler(request, response);
      });
      server.keepAliveTimeout = settings.keepAliveTimeout;
      server.setTimeout(settings.connectionTimeout);
      if (settings.maxRequestsPerSocket > 0) server.maxRequestsPerSocket = settings.maxRequestsPerSocket;
      return server;
    },
  });

  // Tools take JSON only: anything else is refused with a 400 naming the content type.
  app.removeContentTypeParser(['text/plain']);
  app.addHook('preClose', async () => {
    closing = true;
  });
  // Callback-style hooks: on every request, a promise each would cost measurably on the 402 path.
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(corsHeaders);
    done();
  });
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('x-request-id', request.id);
    if (closing) reply.header('connection', 'close');
    done(null, payload);
  });
  app.options('*', async (_request, reply) => reply.code(204).send());

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const answer = transportErrorAnswer(error, options.maxBodyBytes);
    if (answer.status >= 500) request.log.error({ err: error }, 'unhandled error');
    return reply.code(answer.status).send(answer.body);
  });
  app.setNotFoundHandler((request, reply) =>
    reply.code(404).send({ error: 'not_found', message: `No endpoint ${request.method} ${request.url.split('?')[0]}. The tools are listed at /openapi.json and /llms-full.txt.` }),
  );

  app.get('/health', async (_request, reply) => {
    const report = await options.health();
    return reply.code(report.status === 'ok' ? 200 : 503).header('cache-control', 'no-store').send(report);
  });

  registerToolRoutes(app, { catalog: options.catalog, gate: options.gate, publicBaseUrl: options.publicBaseUrl, fastPath });
  const sseSessions = registerMcpRoutes(app, {
    face: mcpFace(options.catalog, options.gate),
    policy: options.mcpOriginPolicy,
    sse: options.sse,
  });
  const description = mcpServerDescription(options.catalog, options.publicBaseUrl, (price) => options.gate.requirements(price));
  app.get('/.well-known/mcp.json', async () => description);
  registerDiscoveryRoutes(app, { catalog: options.catalog, publicBaseUrl: options.publicBaseUrl, requirements: (price) => options.gate.requirements(price) });
  registerDashboardRoutes(app, options);
  return { app, sseSessions };
}
