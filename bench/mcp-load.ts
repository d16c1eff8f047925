// Load on POST /mcp: autocannon (through unpaid-load's `fire`) repeating one request, every answer
// checked with mcp-check's cheap test; only 200s with a right body count toward requests/s.
import { looksRight } from './mcp-check.ts';
import type { McpRequest, Scenario, ToolCall } from './mcp-scenarios.ts';
import { fire } from './unpaid-load.ts';

export interface McpLoadResult {
  scenario: Scenario['id'];
  target: string;
  seconds: number;
  connections: number;
  /** Right answers (200 and a right body) per second. */
  requestsPerSecond: number;
  totalRequests: number;
  /** Answers with status 200 and a right body. */
  right: number;
  /** Answers that were not 2xx (autocannon's non2xx). */
  non2xx: number;
  /** 200s whose body failed the check. */
  wrongBody: number;
  otherStatuses: Record<string, number>;
  errors: number;
  timeouts: number;
  latencyMs: { p50: number; p99: number; mean: number; max: number };
}

function requestSpec(request: McpRequest, onResponse?: (status: number, body: string) => void) {
  return { requests: [{ method: 'POST', headers: request.headers, body: request.body, ...(onResponse ? { onResponse } : {}) }] };
}

/** Same load, results thrown away. */
export async function warmUpMcp(url: string, request: McpRequest, connections: number, seconds: number): Promise<void> {
  if (seconds > 0) await fire(url, connections, seconds, requestSpec(request));
}

export async function measureMcp(scenario: Scenario, target: string, url: string, request: McpRequest, call: ToolCall, connections: number, seconds: number): Promise<McpLoadResult> {
  let right = 0;
  let wrongBody = 0;
  const r = await fire(
    url,
    connections,
    seconds,
    requestSpec(request, (status, body) => {
      if (status !== 200) return;
      if (looksRight(scenario.method, call.answer, body)) right++;
      else wrongBody++;
    }),
  );
  const otherStatuses: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(r.statusCodeStats)) if (code !== '200') otherStatuses[code] = count;
  return {
    scenario: scenario.id,
    target,
    seconds: r.duration,
    connections,
    requestsPerSecond: right / r.duration,
    totalRequests: Object.values(r.statusCodeStats).reduce((sum, s) => sum + s.count, 0),
    right,
    non2xx: r.non2xx,
    wrongBody,
    otherStatuses,
    errors: r.errors,
    timeouts: r.timeouts,
    latencyMs: { p50: r.latency.p50, p99: r.latency.p99, mean: r.latency.mean, max: r.latency.max },
  };
}
