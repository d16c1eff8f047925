// What a payment adds to the server's time per call, handler excluded as far as the outside can:
// one payer, one call at a time, on a quiet gateway. The gate times every call itself (from the
// request reaching the gate to its answer, settlement included) and shows the last 25 on
// GET /dashboard/api/overview (`recentCalls[].durationMs`, 0.1 ms), whose figures are cached for a
// second: read after every batch of 20 calls, outside the calls, once the cache has expired. Each kind of call is also timed by the client (round trip on loopback).
// Kinds: voucher-paid calls; unpaid calls of the same route (the gate's 402, the handler not run;
// the gate's fast path for them is not among the dashboard's recent calls, so only the round trip);
// exact-paid calls, whose answer waits for their settlement on chain.
import { Agent, request } from 'node:http';
import { stats, type Stats } from './latency-stats.ts';

const BATCH = 20;
/** The overview's figures are cached for 1 s (FIGURES_CACHE_MS); a read this long after a batch sees all of it. */
const OVERVIEW_CACHE_MS = 1_100;

export interface ServerTime {
  kind: string;
  /** The gate's own duration per call (undefined where the dashboard does not list the calls). */
  gate: Stats | undefined;
  /** The client's round trip on loopback. */
  roundTrip: Stats;
  failed: number;
}

function call(url: URL, agent: Agent, header: string | undefined): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(url, { agent, headers: header ? { 'payment-signature': header } : {} }, (res) => {
      res.resume();
      res.once('end', () => resolve(res.statusCode ?? 0));
    });
    req.once('error', reject);
    req.end();
  });
}

async function recentDurations(baseUrl: string, kind: string, count: number): Promise<number[]> {
  const overview = (await (await fetch(`${baseUrl}/dashboard/api/overview`)).json()) as { recentCalls: { kind: string; durationMs: number }[] };
  return overview.recentCalls.slice(0, count).filter((c) => c.kind === kind).map((c) => c.durationMs);
}

/**
 * `headers[i]` pays call i (undefined: an unpaid call). `expectStatus` says what a right answer is,
 * `gateKind` which of the dashboard's recent calls are these (its outcome kind; undefined: not read).
 */
export async function measureServerTime(kind: string, baseUrl: string, route: string, headers: readonly (string | undefined)[], expectStatus: number, gateKind: string | undefined): Promise<ServerTime> {
  const url = new URL(`${baseUrl}${route}`);
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const gate: number[] = [];
  const roundTrip: number[] = [];
  let failed = 0;
  for (let i = 0; i < headers.length; i += BATCH) {
    const batch = headers.slice(i, i + BATCH);
    for (const header of batch) {
      const t0 = performance.now();
      const status = await call(url, agent, header);
      if (status === expectStatus) roundTrip.push(performance.now() - t0);
      else failed += 1;
    }
    if (gateKind) {
      await new Promise((r) => setTimeout(r, OVERVIEW_CACHE_MS));
      gate.push(...(await recentDurations(baseUrl, gateKind, batch.length)));
    }
  }
  agent.destroy();
  return { kind, gate: gateKind ? stats(gate) : undefined, roundTrip: stats(roundTrip), failed };
}
