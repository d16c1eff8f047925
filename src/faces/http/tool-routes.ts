// The HTTP face of the catalogue: one route per tool endpoint, every call through the payment gate.
import { encodePaymentResponseHeader } from '../../payments/header-codec.ts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { HttpRoute, Tool } from '../../catalog/tool.ts';
import { summarizeIssues } from '../../catalog/validate-input.ts';
import type { GateCall, GateOutcome, PaymentGate } from '../../payments/gate.ts';
import { httpBazaar } from '../discovery/bazaar.ts';
import { httpFieldName, httpInput } from './http-input.ts';
import { PAYMENT_REQUIRED, PAYMENT_RESPONSE, paymentFromHeaders } from './payment-headers.ts';
import { encoded402, queryOf } from './payment-required-answer.ts';
import type { UnpaidFastPath } from './unpaid-fast-path.ts';

export interface ToolRoutesOptions {
  catalog: readonly Tool[];
  gate: PaymentGate;
  publicBaseUrl: string;
  /** Where unpaid GETs are answered before the framework (see unpaid-fast-path.ts). */
  fastPath?: UnpaidFastPath;
}

export function registerToolRoutes(app: FastifyInstance, options: ToolRoutesOptions): void {
  for (const tool of options.catalog) {
    for (const route of tool.http) {
      const input = route.input ?? tool.input;
      const handler = route.handler ?? (tool.handler as HttpRoute['handler']);
      const resource = {
        url: `${options.publicBaseUrl}${route.path}`,
        description: route.summary ? `${tool.title}: ${route.summary}` : tool.description,
        mimeType: 'application/json',
      };
      const extensions = httpBazaar(tool, route);
      const fromQuery = route.method === 'GET';
      const callOf = (source: unknown, payment: string | undefined, caller: GateCall['caller']): GateCall => ({
        toolName: tool.name,
        price: tool.price,
        input,
        handler: handler?.bind(tool),
        precheck: tool.precheck?.bind(tool) as GateCall['precheck'],
        rawInput: httpInput(route, input, source, fromQuery),
        payment,
        resource,
        extensions,
        caller,
        ...(tool.timeoutMs ? { timeoutMs: tool.timeoutMs } : {}),
        face: 'http',
        reachesOutside: tool.annotations.openWorldHint,
      });
      if (fromQuery && options.fastPath) {
        // An unpaid call records no caller; the socket's address stands in for the proxy-aware one.
        options.fastPath.add(route.path, (query, request) => options.gate.answerUnpaid(callOf(query, undefined, { ip: request.socket.remoteAddress ?? '' })));
      }
      app.route({
        method: route.method,
        url: route.path,
        handler: async (request: FastifyRequest, reply: FastifyReply) => {
          const payment = paymentFromHeaders(request.headers);
          // Only a paid call runs a handler that a caller going away should stop.
          const abort = payment === undefined ? undefined : new AbortController();
          if (abort) {
            request.raw.once('close', () => {
              if (!reply.sent) abort.abort();
            });
          }
          const caller = { ip: request.ip, ...(request.headers['user-agent'] ? { userAgent: request.headers['user-agent'] } : {}), requestId: request.id };
          const call = callOf(fromQuery ? request.query : request.body, payment, caller);
          const outcome = await options.gate.handle(abort ? { ...call, signal: abort.signal } : call);
          return sendOutcome(reply, route, outcome, queryOf(request.url));
        },
      });
    }
  }
}

/** `query`: the request's query string as sent, for the URL a PaymentRequired names. */
function sendOutcome(reply: FastifyReply, route: HttpRoute, outcome: GateOutcome, query: string): FastifyReply {
  switch (outcome.kind) {
    case 'paid':
    case 'refunded':
      return reply
        .code(200)
        .header(PAYMENT_RESPONSE, encodePaymentResponseHeader(outcome.settlement))
        .header('cache-control', 'private, no-store')
        .send(outcome.result);
    case 'invalid_input': {
      const issues = outcome.issues.map((issue) => {
        const field = httpFieldName(route, issue.field);
        return { field, message: issue.message.replace(issue.field, field) };
      });
      return reply.code(400).send({ error: 'invalid_input', message: `${summarizeIssues(issues)}. Nothing was charged.`, issues, charged: false });
    }
    case 'not_implemented':
      return reply.code(501).send({ error: 'not_implemented', message: outcome.message, charged: false });
    case 'payment_required':
      return sendPaymentRequired(reply, 402, encoded402(outcome.paymentRequired, query));
    case 'invalid_payment':
      return sendPaymentRequired(reply, 400, encoded402(outcome.paymentRequired, query));
    case 'settlement_failed':
      reply.header(PAYMENT_RESPONSE, encodePaymentResponseHeader(outcome.settlement));
      return sendPaymentRequired(reply, 402, encoded402(outcome.paymentRequired, query));
    case 'tool_failed':
      if (outcome.retryAfterSeconds !== undefined) reply.header('retry-after', String(outcome.retryAfterSeconds));
      return reply.code(outcome.status).send({
        error: outcome.code,
        message: outcome.message,
        ...(outcome.details ? { details: outcome.details } : {}),
        ...(outcome.retryAfterSeconds !== undefined ? { retryAfterSeconds: outcome.retryAfterSeconds } : {}),
        charged: false,
      });
    case 'unavailable':
      return reply.code(503).header('retry-after', '5').send({ error: outcome.code, message: outcome.message, charged: false });
    case 'conflict':
      if (outcome.code === 'payment_identifier_in_progress') reply.header('retry-after', '2');
      return reply.code(409).send({ error: outcome.code, message: outcome.message, charged: false });
  }
}

function sendPaymentRequired(reply: FastifyReply, status: 400 | 402, { json, header }: { json: string; header: string }): FastifyReply {
  return reply.code(status).header(PAYMENT_REQUIRED, header).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(json);
}
