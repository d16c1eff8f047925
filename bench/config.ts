// Bench settings, from the environment. Defaults keep one full run under ~3 minutes on 2 vCPUs.
export interface BenchConfig {
  /** Measured seconds per target on the 402 path (BENCH_SECONDS). */
  seconds: number;
  /** Warm-up seconds per target before each 402 measurement, thrown away (BENCH_WARMUP_SECONDS). */
  warmupSeconds: number;
  /** autocannon connections (BENCH_CONNECTIONS). */
  connections: number;
  /** Seconds per paid run (BENCH_PAID_SECONDS). */
  paidSeconds: number;
  /** Concurrent payer counts, one paid run per count and app (BENCH_PAYERS, comma-separated). */
  payerCounts: number[];
  /** Upper bound on one paid call, 402 round trip included (BENCH_CALL_TIMEOUT_MS). */
  callTimeoutMs: number;
  /** How long toolgate may take to answer /health (BENCH_TOOLGATE_START_SECONDS). */
  toolgateStartSeconds: number;
  /** BENCH_SKIP_TOOLGATE=1: measure only the bare server and the reference app, on a chain of our own. */
  skipToolgate: boolean;
  /** Longest wait for a quiet machine before each measurement (BENCH_QUIET_WAIT_SECONDS; 0 = don't wait). */
  quietWaitSeconds: number;
  /** BENCH_WRITE_DOCS=0 leaves docs/benchmarks.md alone. */
  writeDocs: boolean;
  /** BENCH_TOOLGATE_BUILD: `compiled` (default: `npm run build`, then `node dist/main.js`, as in production) or `source` (tsx). */
  toolgateBuild: 'compiled' | 'source';
}

/** A numeric BENCH_* setting; unset or empty: `fallback`. Shared by every benchmark's settings. */
export function number(name: string, fallback: number, min: number, max: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min || value > max) throw new Error(`${name}=${raw}: expected a number from ${min} to ${max}`);
  return value;
}

export function flag(name: string, fallback: boolean): boolean {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  return !['0', 'false', 'no'].includes(raw.toLowerCase());
}

export function toolgateBuild(raw: string | undefined): BenchConfig['toolgateBuild'] {
  if (raw === undefined || raw === '' || raw === 'compiled') return 'compiled';
  if (raw === 'source') return 'source';
  throw new Error(`BENCH_TOOLGATE_BUILD=${raw}: expected compiled or source`);
}

export function loadBenchConfig(): BenchConfig {
  const payerCounts = (process.env.BENCH_PAYERS ?? '1,4,16')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map(Number);
  if (payerCounts.length === 0 || payerCounts.some((n) => !Number.isInteger(n) || n < 1 || n > 200)) {
    throw new Error(`BENCH_PAYERS=${process.env.BENCH_PAYERS}: expected comma-separated whole numbers from 1 to 200`);
  }
  return {
    seconds: number('BENCH_SECONDS', 6, 1, 600),
    warmupSeconds: number('BENCH_WARMUP_SECONDS', 2, 0, 60),
    connections: number('BENCH_CONNECTIONS', 50, 1, 1000),
    paidSeconds: number('BENCH_PAID_SECONDS', 10, 1, 600),
    payerCounts,
    callTimeoutMs: number('BENCH_CALL_TIMEOUT_MS', 15_000, 1_000, 120_000),
    toolgateStartSeconds: number('BENCH_TOOLGATE_START_SECONDS', 90, 5, 600),
    quietWaitSeconds: number('BENCH_QUIET_WAIT_SECONDS', 5, 0, 600),
    skipToolgate: flag('BENCH_SKIP_TOOLGATE', false),
    writeDocs: flag('BENCH_WRITE_DOCS', true),
    toolgateBuild: toolgateBuild(process.env.BENCH_TOOLGATE_BUILD),
  };
}
