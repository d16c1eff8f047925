// The 402 path: autocannon, in-process, against one target. `fire` is also the MCP bench's load generator.
import autocannon, { type Options, type Result } from 'autocannon';

export interface UnpaidResult {
  target: string;
  url: string;
  connections: number;
  seconds: number;
  requestsPerSecond: number;
  totalRequests: number;
  /** How many answers were the expected 402. */
  status402: number;
  otherStatuses: Record<string, number>;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p99: number; mean: number; max: number };
}

/** One autocannon run (one thread, in this process); `request` sets what is sent (default: a bare GET of `url`). */
export function fire(url: string, connections: number, seconds: number, request: Pick<Options, 'requests'> = {}): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon({ url, connections, duration: seconds, timeout: 10, ...request }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** Same load, results thrown away: JIT, connection setup and caches settle first. */
export async function warmUpUnpaid(url: string, connections: number, seconds: number): Promise<void> {
  if (seconds > 0) await fire(url, connections, seconds);
}

export async function measureUnpaid(target: string, url: string, connections: number, seconds: number): Promise<UnpaidResult> {
  const r = await fire(url, connections, seconds);
  const otherStatuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats)) if (code !== '402') otherStatuses[code] = count;
  const status402 = r.statusCodeStats['402']?.count ?? 0;
  const total = Object.values(r.statusCodeStats).reduce((sum, s) => sum + s.count, 0);
  return {
    target,
    url,
    connections,
    seconds: r.duration,
    // Every answer counts toward req/s only if it is the 402 we asked for.
    requestsPerSecond: status402 / r.duration,
    totalRequests: total,
    status402,
    otherStatuses,
    errors: r.errors,
    timeouts: r.timeouts,
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.mean, max: r.latency.max },
  };
}
