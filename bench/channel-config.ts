// Settings of `npm run bench:channels`, from the environment. The defaults keep one run under ~5 minutes.
export interface ChannelBenchConfig {
  /** Payers at once in each load (BENCH_CHANNEL_PAYERS). */
  payers: number;
  /** Seconds of each load with payments signed ahead (BENCH_CHANNEL_SECONDS). */
  seconds: number;
  /** Seconds of each load through the official @x402/fetch client (BENCH_CHANNEL_OFFICIAL_SECONDS; 0 skips them). */
  officialSeconds: number;
  /** Vouchers (and exact payments) are signed ahead for at most this many calls per second (BENCH_CHANNEL_MAX_RATE). */
  maxRate: number;
  /** Calls of each kind in the one-at-a-time server-time measurement (BENCH_CHANNEL_LATENCY_CALLS). */
  latencyCalls: number;
  /** The gateway's claim interval during the run, so that claims happen in it (BENCH_CHANNEL_CLAIM_INTERVAL_S). */
  claimIntervalSeconds: number;
  /** BENCH_WRITE_DOCS=0 leaves docs/benchmarks.md alone. */
  writeDocs: boolean;
  /** BENCH_TOOLGATE_BUILD: `compiled` (default) or `source`. */
  toolgateBuild: 'compiled' | 'source';
}

function number(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`${name}=${raw}: expected a number from ${min} to ${max}`);
  return value;
}

export function loadChannelBenchConfig(): ChannelBenchConfig {
  const build = process.env.BENCH_TOOLGATE_BUILD ?? 'compiled';
  if (build !== 'compiled' && build !== 'source') throw new Error(`BENCH_TOOLGATE_BUILD=${build}: expected compiled or source`);
  return {
    payers: number('BENCH_CHANNEL_PAYERS', 50, 1, 200),
    seconds: number('BENCH_CHANNEL_SECONDS', 20, 1, 300),
    officialSeconds: number('BENCH_CHANNEL_OFFICIAL_SECONDS', 10, 0, 300),
    maxRate: number('BENCH_CHANNEL_MAX_RATE', 2_500, 10, 20_000),
    latencyCalls: number('BENCH_CHANNEL_LATENCY_CALLS', 200, 20, 5_000),
    claimIntervalSeconds: number('BENCH_CHANNEL_CLAIM_INTERVAL_S', 20, 1, 3_600),
    writeDocs: !['0', 'false', 'no'].includes((process.env.BENCH_WRITE_DOCS ?? '1').toLowerCase()),
    toolgateBuild: build,
  };
}
