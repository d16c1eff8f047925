// GET /metrics in Prometheus' text format, guarded like the dashboard's detailed view, counting what
// really happened: calls by outcome, revenue, settlement batches, the queue, upstream providers.
// And the request id every answer carries.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { sample } from '../support/prometheus-text.ts';
import { payFor } from '../support/paid-call.ts';
import { countingEchoTool } from '../support/test-tools.ts';

let open: TestGateway;
let guarded: TestGateway;
const TOKEN = 'a-dashboard-token-long-enough';

before(async () => {
  open = await startTestGateway({ catalog: [countingEchoTool().tool] });
  guarded = await startTestGateway({ devChain: open.devChain, catalog: [countingEchoTool().tool], env: { TOOLGATE_DASHBOARD_TOKEN: TOKEN } });
});
after(async () => {
  await guarded?.close();
  await open?.close();
});

describe('/metrics', () => {
  test('counts a paid call, a 402 and a bad input by tool, face and outcome, with revenue and the settlement batch', async () => {
    const paid = await payFor(open, '/test/echo?word=metrics');
    assert.equal(paid.status, 200);
    assert.equal((await fetch(`${open.baseUrl}/test/echo?word=unpaid`)).status, 402);
    assert.equal((await fetch(`${open.baseUrl}/test/echo`)).status, 400);

    const response = await fetch(`${open.baseUrl}/metrics`);
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const calls = (outcome: string) => sample(text, 'toolgate_calls_total', { tool: 'test_echo', face: 'http', outcome });
    assert.equal(calls('paid'), 1);
    assert.ok((calls('payment_required') ?? 0) >= 2, 'payFor asks for the price first, and the unpaid call');
    assert.equal(calls('invalid_input'), 1);
    assert.equal(sample(text, 'toolgate_revenue_usdc_total', { tool: 'test_echo' }), 0.001);
    assert.equal(sample(text, 'toolgate_call_duration_seconds_count', { tool: 'test_echo', outcome: 'paid' }), 1);
    assert.equal(sample(text, 'toolgate_settlement_batch_size_count'), 1);
    assert.equal(sample(text, 'toolgate_settlements_total', { outcome: 'settled' }), 1);
    assert.equal(sample(text, 'toolgate_settlement_queue_depth', { stage: 'queued' }), 0);
    assert.ok((sample(text, 'toolgate_process_resident_memory_bytes') ?? 0) > 0);
    assert.match(text, /# TYPE toolgate_upstream_errors_total counter/);
  });

  test('is guarded like the detailed dashboard: with a token configured, none is 403 and a wrong one 401', async () => {
    assert.equal((await fetch(`${guarded.baseUrl}/metrics`)).status, 403);
    assert.equal((await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: 'Bearer wrong-token-of-some-length' } })).status, 401);
    const allowed = await fetch(`${guarded.baseUrl}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } });
    assert.equal(allowed.status, 200);
    assert.match(await allowed.text(), /toolgate_calls_total/);
  });
});

describe('request ids', () => {
  test('every answer carries one; a caller\'s own plain id is kept, anything else replaced', async () => {
    const made = (await fetch(`${open.baseUrl}/health`)).headers.get('x-request-id');
    assert.match(made ?? '', /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const kept = await fetch(`${open.baseUrl}/test/echo?word=x`, { headers: { 'x-request-id': 'agent-run-42.step:7' } });
    assert.equal(kept.headers.get('x-request-id'), 'agent-run-42.step:7');
    const replaced = await fetch(`${open.baseUrl}/health`, { headers: { 'x-request-id': 'has spaces <and> more' } });
    assert.notEqual(replaced.headers.get('x-request-id'), 'has spaces <and> more');
  });
});
