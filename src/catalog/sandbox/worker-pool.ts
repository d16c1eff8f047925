// Runs untrusted computations (a caller's formula, a caller's regular expression) in worker threads
// that can be killed: a JavaScript loop or a backtracking RegExp cannot be interrupted from inside
// its own thread, but `worker.terminate()` stops it at once. Workers are started ahead of need and
// reused, because starting one (a V8 isolate plus its libraries) costs hundreds of milliseconds.
//
// The worker scripts are plain .mjs files (see worker-host.mjs): they need no TypeScript loader,
// so they start as fast under `node --import tsx` (tests, npm start) as anywhere else.
import { Worker, type ResourceLimits } from 'node:worker_threads';

export interface WorkerPoolOptions {
  /** Says whose workers these are in errors, e.g. "calculate_math". */
  name: string;
  /** The worker's entry, a .mjs file that calls `serveTasks` from worker-host.mjs. */
  script: URL;
  workerData?: unknown;
  resourceLimits: ResourceLimits;
  /** Idle workers kept started and waiting, so a call never waits for one to start. */
  spareWorkers: number;
  /** Workers at most, busy, idle and starting together. */
  maxWorkers: number;
  /** Calls that may wait for a worker when all are busy; more are refused with WorkerPoolBusyError. */
  maxWaiting: number;
  /** How long a worker beyond the spares may stay idle before it is stopped. */
  idleRetireMs: number;
}

export interface RunOptions {
  /** Time the task may run once a worker has it; the worker is terminated when it runs out. */
  timeLimitMs: number;
  /** Aborting stops waiting for a worker, or terminates the worker running the task. */
  signal?: AbortSignal;
}

export interface TaskRun<T> {
  value: T;
  /** Wall time from handing the task to the worker to its answer. */
  elapsedMs: number;
}

/** The task ran out of its time limit; its worker was terminated. */
export class WorkerTimeoutError extends Error {
  constructor(readonly timeLimitMs: number) {
    super(`did not finish within ${timeLimitMs} ms`);
    this.name = 'WorkerTimeoutError';
  }
}

/** The task went over the worker's memory limit; its worker was terminated. */
export class WorkerMemoryError extends Error {
  constructor(readonly limitMb: number | undefined) {
    super(`went over the ${limitMb ?? 'set'} MB memory limit`);
    this.name = 'WorkerMemoryError';
  }
}

/** Every worker is busy and the waiting line is full. */
export class WorkerPoolBusyError extends Error {
  constructor(name: string) {
    super(`all ${name} workers are busy`);
    this.name = 'WorkerPoolBusyError';
  }
}

/** The worker failed in a way that is not the task's fault (it could not start, or it died). */
export class WorkerCrashError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'WorkerCrashError';
  }
}

/** The task threw inside the worker (a bug, not the caller's input: engines report bad input as values). */
export class WorkerTaskError extends Error {
  constructor(readonly remoteName: string, message: string) {
    super(message);
    this.name = 'WorkerTaskError';
  }
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: { name: string; message: string } };
type ReadyMessage = { ready: true };

interface Slot {
  worker: Worker;
  state: 'starting' | 'idle' | 'busy';
  retireTimer?: NodeJS.Timeout;
  /** Set while busy: settles the task that worker is running. */
  task?: { id: number; settle(outcome: { ok: true; value: unknown } | { ok: false; error: Error }): void };
}

interface Waiter {
  take(slot: Slot): void;
  refuse(error: Error): void;
}

const isReady = (message: unknown): message is ReadyMessage =>
  typeof message === 'object' && message !== null && (message as ReadyMessage).ready === true;

export class WorkerPool {
  private readonly slots = new Set<Slot>();
  private readonly waiting: Waiter[] = [];
  private nextTaskId = 1;
  private closed = false;

  constructor(private readonly options: WorkerPoolOptions) {}

  /** Starts the spare workers now rather than on the first call. Safe to call any number of times. */
  warm(): void {
    if (!this.closed) this.replenish();
  }

  /** Runs one task in a worker and returns its value; see the error classes for the ways it can fail. */
  async run<T>(task: unknown, options: RunOptions): Promise<TaskRun<T>> {
    options.signal?.throwIfAborted();
    const slot = await this.acquire(options.signal);
    return this.runOn<T>(slot, task, options);
  }

  /** Counts for tests and metrics. */
  stats(): { starting: number; idle: number; busy: number; waiting: number } {
    const count = (state: Slot['state']) => [...this.slots].filter((s) => s.state === state).length;
    return { starting: count('starting'), idle: count('idle'), busy: count('busy'), waiting: this.waiting.length };
  }

  /** Stops every worker and refuses whatever waits. The pool cannot be used afterwards. */
  async close(): Promise<void> {
    this.closed = true;
    for (const waiter of this.waiting.splice(0)) waiter.refuse(new WorkerCrashError(`the ${this.options.name} worker pool was closed`));
    const workers = [...this.slots].map((slot) => slot.worker);
    for (const slot of this.slots) slot.task?.settle({ ok: false, error: new WorkerCrashError(`the ${this.options.name} worker pool was closed`) });
    this.slots.clear();
    await Promise.all(workers.map((worker) => worker.terminate()));
  }

  private acquire(signal: AbortSignal | undefined): Promise<Slot> {
    if (this.closed) return Promise.reject(new WorkerCrashError(`the ${this.options.name} worker pool was closed`));
    const idle = [...this.slots].find((slot) => slot.state === 'idle');
    if (idle) {
      this.occupy(idle);
      this.replenish();
      return Promise.resolve(idle);
    }
    if (this.waiting.length >= this.options.maxWaiting) return Promise.reject(new WorkerPoolBusyError(this.options.name));
    return new Promise<Slot>((resolve, reject) => {
      const onAbort = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
        this.refreshRefs();
        reject(signal?.reason);
      };
      const waiter: Waiter = {
        take: (slot) => {
          signal?.removeEventListener('abort', onAbort);
          resolve(slot);
        },
        refuse: (error) => {
          signal?.removeEventListener('abort', onAbort);
          reject(error);
        },
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
      this.replenish();
      this.refreshRefs();
    });
  }

  private runOn<T>(slot: Slot, task: unknown, options: RunOptions): Promise<TaskRun<T>> {
    const id = this.nextTaskId++;
    const started = performance.now();
    if (!this.slots.has(slot)) return Promise.reject(new WorkerCrashError(`a ${this.options.name} worker stopped before it got the task`));
    return new Promise<TaskRun<T>>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.discard(slot);
        settle({ ok: false, error: new WorkerTimeoutError(options.timeLimitMs) });
      }, options.timeLimitMs);
      const onAbort = () => {
        this.discard(slot);
        settle({ ok: false, error: options.signal?.reason instanceof Error ? options.signal.reason : new Error('aborted') });
      };
      let settled = false;
      const settle = (outcome: { ok: true; value: unknown } | { ok: false; error: Error }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        if (outcome.ok) resolve({ value: outcome.value as T, elapsedMs: performance.now() - started });
        else reject(outcome.error);
      };
      slot.task = { id, settle };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      slot.worker.postMessage({ id, task });
    });
  }

  private spawn(): void {
    const { resourceLimits, script, workerData, name } = this.options;
    // execArgv: [] keeps the parent's flags (--import tsx, --test...) out of the worker: it needs none.
    const worker = new Worker(script, { workerData, resourceLimits, execArgv: [], stdout: false, stderr: false });
    const slot: Slot = { worker, state: 'starting' };
    this.slots.add(slot);
    worker.unref();

    worker.on('message', (message: unknown) => {
      if (isReady(message)) {
        if (slot.state === 'starting') this.release(slot);
        return;
      }
      const reply = message as Reply;
      const task = slot.task;
      if (!task || reply.id !== task.id) return;
      slot.task = undefined;
      if (reply.ok) task.settle({ ok: true, value: reply.value });
      else task.settle({ ok: false, error: new WorkerTaskError(reply.error.name, reply.error.message) });
      this.release(slot);
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const failure = error.code === 'ERR_WORKER_OUT_OF_MEMORY'
        ? new WorkerMemoryError(resourceLimits.maxOldGenerationSizeMb)
        : new WorkerCrashError(`a ${name} worker failed: ${error.message}`, { cause: error });
      this.fail(slot, failure);
    });
    worker.on('exit', (code) => {
      this.fail(slot, new WorkerCrashError(`a ${name} worker exited with code ${code}`));
    });
  }

  /** A worker died on its own: settle its task, and refuse waiters if it never started (so a broken script does not respawn forever). */
  private fail(slot: Slot, error: Error): void {
    if (!this.slots.delete(slot)) return;
    clearTimeout(slot.retireTimer);
    const neverStarted = slot.state === 'starting';
    slot.task?.settle({ ok: false, error });
    slot.task = undefined;
    if (neverStarted) {
      if (![...this.slots].some((s) => s.state !== 'starting')) {
        for (const waiter of this.waiting.splice(0)) waiter.refuse(error);
      }
      return;
    }
    this.replenish();
  }

  /** Terminates a worker the pool gives up on (time limit, abort); a fresh one takes its place. */
  private discard(slot: Slot): void {
    if (!this.slots.delete(slot)) return;
    clearTimeout(slot.retireTimer);
    slot.task = undefined;
    slot.worker.removeAllListeners('exit');
    void slot.worker.terminate();
    this.replenish();
  }

  private occupy(slot: Slot): void {
    clearTimeout(slot.retireTimer);
    slot.state = 'busy';
    slot.worker.ref(); // a running task keeps the process alive until it answers
  }

  /** A worker is free: give it to the first waiter, or keep it idle (and retire it later if it is extra). */
  private release(slot: Slot): void {
    if (!this.slots.has(slot)) return;
    const waiter = this.waiting.shift();
    if (waiter) {
      this.occupy(slot);
      waiter.take(slot);
      this.replenish();
      this.refreshRefs();
      return;
    }
    slot.state = 'idle';
    slot.worker.unref();
    const idle = [...this.slots].filter((s) => s.state === 'idle').length;
    if (idle > this.options.spareWorkers) {
      slot.retireTimer = setTimeout(() => {
        if (slot.state === 'idle' && this.slots.delete(slot)) {
          slot.worker.removeAllListeners('exit');
          void slot.worker.terminate();
        }
      }, this.options.idleRetireMs);
      slot.retireTimer.unref();
    }
    this.refreshRefs();
  }

  /** Starts workers until the spares and the waiters are covered, within maxWorkers. */
  private replenish(): void {
    if (this.closed) return;
    const slots = [...this.slots];
    const starting = slots.filter((s) => s.state === 'starting').length;
    const idle = slots.filter((s) => s.state === 'idle').length;
    let wanted = Math.max(0, this.options.spareWorkers + this.waiting.length - starting - idle);
    while (wanted > 0 && this.slots.size < this.options.maxWorkers) {
      this.spawn();
      wanted -= 1;
    }
  }

  /** Starting workers keep the process alive only while someone waits for them. */
  private refreshRefs(): void {
    for (const slot of this.slots) {
      if (slot.state !== 'starting') continue;
      if (this.waiting.length > 0) slot.worker.ref();
      else slot.worker.unref();
    }
  }
}
