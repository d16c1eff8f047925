// The worker pool shape shared by the sandboxed tools (math, regex), started on first use.
import { availableParallelism } from 'node:os';
import { WorkerPool } from './worker-pool.ts';

const WORKER_MEMORY_MB = 128;

/** A getter for a lazily started pool running `script`, with the sandbox's memory caps. */
export function lazySandboxPool(name: string, script: URL): () => WorkerPool {
  let pool: WorkerPool | undefined;
  return () =>
    (pool ??= new WorkerPool({
      name,
      script,
      resourceLimits: { maxOldGenerationSizeMb: WORKER_MEMORY_MB, maxYoungGenerationSizeMb: 16, stackSizeMb: 4 },
      // Two idle workers: when a runaway task takes one, the next caller still finds one ready.
      spareWorkers: 2,
      // More workers than cores on purpose: a runaway task holds its worker for up to its time limit,
      // and the next caller should get a thread (and its share of the CPU) rather than a place in line.
      maxWorkers: Math.max(4, availableParallelism()),
      maxWaiting: 32,
      idleRetireMs: 30_000,
    }));
}
