import assert from 'node:assert/strict';
import type { IncomingMessage, ServerResponse } from 'node:http';
import test from 'node:test';
import type { PaymentRequired } from '@x402/core/types';
import { UnpaidFastPath } from './unpaid-fast-path.ts';

const request = (url: string, headers: Record<string, string> = {}, method = 'GET') => ({ method, url, headers }) as unknown as IncomingMessage;

function response() {
  const written: { status?: number; headers?: string[]; body?: string } = {};
  const res = {
    writeHead(status: number, headers: string[]) {
      written.status = status;
      written.headers = headers;
    },
    end(body: string) {
      written.body = body;
    },
  } as unknown as ServerResponse;
  return { res, written };
}

const paymentRequired = { x402Version: 2, error: 'Payment required', resource: { url: 'http://x/api/t' }, accepts: [] } as unknown as PaymentRequired;

test('answers an unpaid GET of a known path with the 402 its route gives, query parsed', () => {
  const path = new UnpaidFastPath();
  let seen: Record<string, unknown> | undefined;
  path.add('/api/t', (query) => {
    seen = query;
    return { kind: 'payment_required', paymentRequired };
  });
  const { res, written } = response();
  assert.equal(path.serve(request('/api/t?a=1&b=x+y&b=z', { 'x-request-id': 'r-1' }), res), true);
  assert.deepEqual({ ...seen }, { a: '1', b: ['x y', 'z'] });
  assert.equal(written.status, 402);
  // The route's resource, named by the URL as asked (the query as sent, not re-encoded).
  assert.equal(written.body, JSON.stringify({ ...paymentRequired, resource: { url: 'http://x/api/t?a=1&b=x+y&b=z' } }));
  assert.deepEqual(written.headers?.slice(-2), ['x-request-id', 'r-1']);
});

test('leaves to the framework: a payment header, another method or path, an answer other than 402, an answer that throws', () => {
  const path = new UnpaidFastPath();
  path.add('/api/t', () => ({ kind: 'payment_required', paymentRequired }));
  path.add('/api/refused', () => undefined);
  path.add('/api/throws', () => {
    throw new Error('a precheck that is not a ToolError');
  });
  for (const [req, why] of [
    [request('/api/t', { 'payment-signature': 'x' }), 'PAYMENT-SIGNATURE'],
    [request('/api/t', { 'x-payment': '' }), 'X-PAYMENT, even empty'],
    [request('/api/t', {}, 'HEAD'), 'HEAD'],
    [request('/api/t/'), 'another path'],
    [request('/api/refused?x=1'), 'not a 402'],
    [request('/api/throws'), 'throws'],
  ] as const) {
    const { res, written } = response();
    assert.equal(path.serve(req, res), false, why);
    assert.equal(written.status, undefined, `${why}: nothing written`);
  }
});
