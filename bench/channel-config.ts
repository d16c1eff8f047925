// Settings of `npm run bench:channels`, from the environment. The defaults keep one run under ~5 minutes.
import { flag, number, toolgateBuild } from './config.ts';

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
  /** BENCH_CHANNEL_COLD_CONNECTIONS=1: the voucher load's connections open with their first voucher, in the window (the stall of earlier runs). */
  coldConnections: boolean;
  /** BENCH_WRITE_DOCS=0 leaves docs/benchmarks.md alone. */
  writeDocs: boolean;
  /** BENCH_TOOLGATE_BUILD: `compiled` (default) or `source`. */
  toolgateBuild: 'compiled' | 'source';
}

export function loadChannelBenchConfig(): ChannelBenchConfig {
  return {
    payers: number('BENCH_CHANNEL_PAYERS', 50, 1, 200),
    seconds: number('BENCH_CHANNEL_SECONDS', 20, 1, 300),
    officialSeconds: number('BENCH_CHANNEL_OFFICIAL_SECONDS', 10, 0, 300),
    maxRate: number('BENCH_CHANNEL_MAX_RATE', 2_500, 10, 20_000),
    latencyCalls: number('BENCH_CHANNEL_LATENCY_CALLS', 200, 20, 5_000),
    claimIntervalSeconds: number('BENCH_CHANNEL_CLAIM_INTERVAL_S', 20, 1, 3_600),
    coldConnections: flag('BENCH_CHANNEL_COLD_CONNECTIONS', false),
    writeDocs: flag('BENCH_WRITE_DOCS', true),
    toolgateBuild: toolgateBuild(process.env.BENCH_TOOLGATE_BUILD),
  };
}
