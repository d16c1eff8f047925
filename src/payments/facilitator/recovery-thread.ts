// Signer recovery on a second thread while the main thread is saturated. Under a voucher load the main
// thread is the limit (HTTP, the gate, the embedded ledger all run on it) and a recovery is ~11 % of
// its time, while the machine's other core is mostly idle. Recoveries asked for in one turn of the
// event loop go to the worker as one message and come back as one, so a voucher costs the main thread
// a few microseconds instead of ~80. When the main thread is not busy (a call at a time), recovery
// stays inline: a hop to another thread and back would add its wake-ups to every call's latency.
// If the worker cannot start or dies, its jobs and every later one are recovered inline.
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { Address, Hex } from 'viem';

/** Whether the main thread has been busy enough that work should leave it. */
export interface ThreadLoad {
  busy(): boolean;
}

/**
 * This thread's event-loop utilization over the last window: busy from `threshold` (0.9: under a
 * 50-payer voucher load it is ~0.97, one call at a time ~0.6). Sampled on an unref'd timer.
 */
export class EventLoopLoad implements ThreadLoad {
  private last = performance.eventLoopUtilization();
  private utilization = 0;

  constructor(windowMs = 200, private readonly threshold = 0.9) {
    setInterval(() => {
      const now = performance.eventLoopUtilization();
      this.utilization = performance.eventLoopUtilization(now, this.last).utilization;
      this.last = now;
    }, windowMs).unref();
  }

  busy(): boolean {
    return this.utilization >= this.threshold;
  }
}

export interface RecoveryThreadOptions {
  /** Recovery on this thread: used while the load is light, and in place of a worker that failed. Throws where nothing recovers. */
  inline(digest: Hex, signature: Hex): Address;
  load: ThreadLoad;
  /** The worker's script (recovery-worker.mjs). */
  script?: URL;
}

interface Job {
  digest: Hex;
  signature: Hex;
  resolve(signer: Address): void;
  reject(error: unknown): void;
}

const WORKER_SCRIPT = new URL('./recovery-worker.mjs', import.meta.url);

export class RecoveryThread {
  private worker: Worker | undefined;
  private state: 'idle' | 'starting' | 'ready' | 'failed' = 'idle';
  private queued: Job[] = [];
  /** Batches posted to the worker, oldest first: it answers them in order. */
  private readonly posted: Job[][] = [];
  private flushScheduled = false;
  private readonly settled: { promise: Promise<boolean>; resolve(ready: boolean): void } = (() => {
    let resolve!: (ready: boolean) => void;
    return { promise: new Promise<boolean>((r) => (resolve = r)), resolve };
  })();
  /** Recoveries the worker answered (tests read it). */
  offloaded = 0;

  constructor(private readonly options: RecoveryThreadOptions) {}

  /** The address whose key signed `digest`; rejects (or throws) where nothing recovers, as `inline` does. */
  recover(digest: Hex, signature: Hex): Address | Promise<Address> {
    if (!this.options.load.busy()) return this.options.inline(digest, signature);
    if (this.state === 'idle') this.start();
    if (this.state !== 'ready') return this.options.inline(digest, signature);
    return new Promise<Address>((resolve, reject) => {
      this.queued.push({ digest, signature, resolve, reject });
      if (!this.flushScheduled) {
        this.flushScheduled = true;
        setImmediate(() => this.flush());
      }
    });
  }

  /** Resolves once the worker has started (true) or failed to (false); tests wait on it. */
  started(): Promise<boolean> {
    return this.settled.promise;
  }

  /** Stops the worker; later recoveries run inline. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.fail();
    await worker?.terminate();
  }

  private start(): void {
    this.state = 'starting';
    const worker = new Worker(this.options.script ?? WORKER_SCRIPT);
    this.worker = worker;
    // Referenced while it starts and while it holds jobs (a pending recovery keeps the process alive), not while idle.
    worker.on('message', (message: string[] | 'ready') => {
      if (message !== 'ready') return this.answer(message);
      if (this.state === 'starting') this.state = 'ready';
      if (this.posted.length === 0) worker.unref();
      this.settled.resolve(this.state === 'ready');
    });
    worker.once('error', () => this.fail());
    worker.once('exit', () => this.fail());
  }

  private flush(): void {
    this.flushScheduled = false;
    const jobs = this.queued;
    this.queued = [];
    if (jobs.length === 0) return;
    if (this.state !== 'ready' || !this.worker) {
      this.inlineAll(jobs);
      return;
    }
    const batch: string[] = new Array(jobs.length * 2);
    jobs.forEach((job, i) => {
      batch[2 * i] = job.digest;
      batch[2 * i + 1] = job.signature;
    });
    if (this.posted.length === 0) this.worker.ref();
    this.posted.push(jobs);
    this.worker.postMessage(batch);
  }

  private answer(signers: string[]): void {
    const jobs = this.posted.shift();
    if (this.posted.length === 0) this.worker?.unref();
    if (!jobs) return;
    jobs.forEach((job, i) => {
      const signer = signers[i];
      if (signer) job.resolve(signer as Address);
      else job.reject(new Error('no public key recovers from this signature and digest'));
    });
    this.offloaded += jobs.length;
  }

  /** The worker is gone or never started: what it held is recovered here, and so is everything after. */
  private fail(): void {
    this.state = 'failed';
    this.worker = undefined;
    this.settled.resolve(false);
    const jobs = [...this.posted.flat(), ...this.queued];
    this.posted.length = 0;
    this.queued = [];
    this.inlineAll(jobs);
  }

  private inlineAll(jobs: readonly Job[]): void {
    for (const job of jobs) {
      try {
        job.resolve(this.options.inline(job.digest, job.signature));
      } catch (error) {
        job.reject(error);
      }
    }
  }
}
