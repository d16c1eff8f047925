// The gate's own duration of paid calls under load, from toolgate_call_duration_seconds on /metrics
// (its buckets start at 5 ms, so this gives the mean and the share under 5 and 10 ms, not p50/p99).
export interface HistogramSnapshot {
  count: number;
  sumSeconds: number;
  /** Cumulative count at each upper bound (seconds). */
  buckets: Map<number, number>;
}

export interface GateUnderLoad {
  calls: number;
  meanMs: number;
  /** Share of calls the gate answered within 5 ms, and within 10 ms (percent). */
  within5msPct: number;
  within10msPct: number;
}

/** The paid calls of `tool` over HTTP, as /metrics has counted them so far. */
export async function paidHistogram(baseUrl: string, tool: string): Promise<HistogramSnapshot> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  const labels = `tool="${tool}",face="http",outcome="paid"`;
  const snapshot: HistogramSnapshot = { count: 0, sumSeconds: 0, buckets: new Map() };
  for (const line of text.split('\n')) {
    if (!line.startsWith('toolgate_call_duration_seconds') || !line.includes(labels)) continue;
    const value = Number(line.slice(line.lastIndexOf(' ') + 1));
    if (line.startsWith('toolgate_call_duration_seconds_count')) snapshot.count = value;
    else if (line.startsWith('toolgate_call_duration_seconds_sum')) snapshot.sumSeconds = value;
    else {
      const le = /le="([^"]+)"/.exec(line)?.[1];
      if (le && le !== '+Inf') snapshot.buckets.set(Number(le), value);
    }
  }
  return snapshot;
}

export function gateBetween(a: HistogramSnapshot, b: HistogramSnapshot): GateUnderLoad {
  const calls = b.count - a.count;
  const within = (le: number) => (calls ? (100 * ((b.buckets.get(le) ?? 0) - (a.buckets.get(le) ?? 0))) / calls : Number.NaN);
  return { calls, meanMs: calls ? (1000 * (b.sumSeconds - a.sumSeconds)) / calls : Number.NaN, within5msPct: within(0.005), within10msPct: within(0.01) };
}
