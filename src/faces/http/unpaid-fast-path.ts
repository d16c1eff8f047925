// The unpaid GET of a tool, answered before the framework sees it: the most frequent request a
// gateway gets (every paid call starts with one, and crawlers send nothing else). It goes through
// the same gate (input validated, the tool built, its precheck, the call recorded) and answers the
// same bytes as the tool's route would; anything else (a payment, bad input, another method or
// path) is left to the framework. Under load this is most of the 402 path's cost: Fastify's
// request and reply objects, hooks and header merging for an answer that never changes.
import type { IncomingMessage, ServerResponse } from 'node:http';
import { parse } from 'node:querystring';
import type { GateOutcome } from '../../payments/gate-outcome.ts';
import { PAYMENT_SIGNATURE, X_PAYMENT } from './payment-headers.ts';
import { encoded402 } from './payment-required-answer.ts';
import { requestIdFor } from './request-id.ts';

/** Answers an unpaid call's query with its 402, or undefined when the call must take the full path. */
export type UnpaidAnswer = (query: Record<string, unknown>, request: IncomingMessage) => GateOutcome | undefined;

export class UnpaidFastPath {
  private readonly routes = new Map<string, UnpaidAnswer>();

  add(path: string, answer: UnpaidAnswer): void {
    this.routes.set(path, answer);
  }

  /** True when it answered; false leaves the request untouched for the framework. */
  serve(request: IncomingMessage, response: ServerResponse): boolean {
    if (request.method !== 'GET' || request.headers[PAYMENT_SIGNATURE] !== undefined || request.headers[X_PAYMENT] !== undefined) return false;
    const url = request.url ?? '';
    const mark = url.indexOf('?');
    const answer = this.routes.get(mark === -1 ? url : url.slice(0, mark));
    if (!answer) return false;
    let outcome: GateOutcome | undefined;
    try {
      outcome = answer(mark === -1 ? {} : parse(url.slice(mark + 1)), request);
    } catch {
      // A throwing precheck or validation: the route runs it again and answers through Fastify's error handler.
      return false;
    }
    if (outcome?.kind !== 'payment_required') return false;
    const { json, rawHeaders } = encoded402(outcome.paymentRequired, mark === -1 ? '' : url.slice(mark));
    response.writeHead(402, [...rawHeaders, 'x-request-id', requestIdFor(request.headers)]);
    response.end(json);
    return true;
  }
}
