// Latency samples summarised the same way by every per-call benchmark: p50, p99 and mean in ms.
export interface Stats {
  calls: number;
  p50: number;
  p99: number;
  mean: number;
}

export function stats(samples: number[]): Stats {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  const round = (ms: number) => Math.round(ms * 100) / 100;
  return { calls: samples.length, p50: round(at(0.5)), p99: round(at(0.99)), mean: round(samples.reduce((a, b) => a + b, 0) / samples.length) };
}
