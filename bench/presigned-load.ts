// Paid load with payments signed ahead of time: each payer sends one request at a time, carrying
// the next of its PAYMENT-SIGNATURE headers, over its own keep-alive connection (node:http), for a
// fixed time. Each connection is opened by one unpaid request before the window: 50 connections
// opened at once while the gateway is saturated by vouchers left some of them unserved for seconds
// (docs/benchmarks.md, "Payment channels"), which is measured apart from the steady rate. One round trip per call, nothing signed in the window: what is left on the client
// side is HTTP. The same loop drives `exact` and channel vouchers, so their rows compare servers.
import { Agent, request } from 'node:http';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { percentile } from './paid-load.ts';

export interface PresignedPayer {
  /** This payer's payments in order; a voucher is cumulative, so it is only passed once accepted. */
  headers: string[];
}

export interface PresignedResult {
  label: string;
  payers: number;
  seconds: number;
  calls: number;
  succeeded: number;
  failed: number;
  perSecond: number;
  latencyMs: { p50: number; p99: number; max: number };
  failures: Record<string, number>;
  /** Payers that used up their signed payments before the deadline (the run then undercounts). */
  ranOut: number;
  /** Transaction hash of each success's PAYMENT-RESPONSE (`""` for a voucher) and how many share it. */
  transactions: Record<string, number>;
  /** Failures and calls slower than SLOW_MS: when they started (s into the run), whose, how long, what. */
  incidents: { atS: number; payer: number; ms: number; what: string }[];
}

const SLOW_MS = 2_000;

interface Answer {
  status: number;
  paymentResponse: string | undefined;
  paymentRequired: string | undefined;
}

function get(url: URL, agent: Agent, header: string, timeoutMs: number): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: { 'payment-signature': header }, timeout: timeoutMs }, (res) => {
      res.resume();
      res.once('end', () => resolve({ status: res.statusCode ?? 0, paymentResponse: res.headers['payment-response'] as string | undefined, paymentRequired: res.headers['payment-required'] as string | undefined }));
      res.once('error', reject);
    });
    req.once('timeout', () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.once('error', reject);
    req.end();
  });
}

/** One unpaid request on the agent's connection (the gateway's 402), so that the window starts on open connections. */
function open(url: URL, agent: Agent): Promise<void> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent }, (res) => {
      res.resume();
      res.once('end', () => resolve());
    });
    req.once('error', reject);
    req.end();
  });
}

function outcome(answer: Answer): { ok: true; transaction: string } | { ok: false; reason: string } {
  const settled = answer.paymentResponse ? decodePaymentResponseHeader(answer.paymentResponse) : undefined;
  if (answer.status === 200 && settled?.success) return { ok: true, transaction: settled.transaction };
  if (settled) return { ok: false, reason: `${answer.status} ${settled.errorReason ?? 'settle failed'}` };
  const asked = answer.paymentRequired ? decodePaymentRequiredHeader(answer.paymentRequired).error : undefined;
  return { ok: false, reason: `${answer.status} ${(asked ?? '').split(':')[0]}`.trim() };
}

/**
 * `cumulative`: a failed payment is sent again (a voucher's amount only moves on once accepted);
 * a payer stops after 5 failures in a row. Otherwise each header is used once.
 */
/** `coldConnections`: each payer's connection is opened by its first payment, inside the window (the stall below). */
export async function measurePresigned(label: string, url: string, payers: readonly PresignedPayer[], seconds: number, cumulative: boolean, timeoutMs = 15_000, coldConnections = false): Promise<PresignedResult> {
  const target = new URL(url);
  const latencies: number[] = [];
  const failures: Record<string, number> = {};
  const transactions: Record<string, number> = {};
  const incidents: PresignedResult['incidents'] = [];
  let calls = 0;
  let ranOut = 0;
  const agents = payers.map(() => new Agent({ keepAlive: true, maxSockets: 1 }));
  if (!coldConnections) await Promise.all(agents.map((agent) => open(target, agent)));
  const start = performance.now();
  const deadline = start + seconds * 1000;
  const loop = async (payer: PresignedPayer, index: number) => {
    const agent = agents[index] as Agent;
    let next = 0;
    let inARow = 0;
    while (performance.now() < deadline && inARow < 5) {
      const header = payer.headers[next];
      if (header === undefined) {
        ranOut += 1;
        break;
      }
      const t0 = performance.now();
      calls += 1;
      let result: ReturnType<typeof outcome>;
      try {
        result = outcome(await get(target, agent, header, timeoutMs));
      } catch (error) {
        result = { ok: false, reason: `threw: ${error instanceof Error ? error.message : String(error)}`.slice(0, 120) };
      }
      const ms = performance.now() - t0;
      if (!result.ok || ms > SLOW_MS) incidents.push({ atS: Math.round(t0 - start) / 1000, payer: index, ms: Math.round(ms), what: result.ok ? 'slow' : result.reason });
      if (result.ok) {
        latencies.push(ms);
        transactions[result.transaction] = (transactions[result.transaction] ?? 0) + 1;
        next += 1;
        inARow = 0;
      } else {
        failures[result.reason] = (failures[result.reason] ?? 0) + 1;
        inARow += 1;
        if (!cumulative) next += 1;
      }
    }
    agent.destroy();
  };
  await Promise.all(payers.map(loop));
  const elapsed = (performance.now() - start) / 1000;
  latencies.sort((a, b) => a - b);
  const succeeded = latencies.length;
  return {
    label,
    payers: payers.length,
    seconds: elapsed,
    calls,
    succeeded,
    failed: calls - succeeded,
    perSecond: succeeded / elapsed,
    latencyMs: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: latencies.at(-1) ?? Number.NaN },
    failures,
    ranOut,
    transactions,
    incidents,
  };
}
