// One provider's admission control for the whole process: at most `concurrency` requests in
// flight and `requests` per `perMs` (a generic cell rate algorithm: bursts up to `requests`, then
// evenly spaced). A call waits its turn only as long as the provider's queue bound and its own
// deadline allow; beyond that it is refused at once with the time after which it would have
// been admitted, which becomes the caller's Retry-After.
import type { RateLimit } from './provider.ts';

export class AdmissionRefused extends Error {
  constructor(readonly retryAfterMs: number, reason: string) {
    super(reason);
    this.name = 'AdmissionRefused';
  }
}

interface Waiter {
  wake: () => void;
}

export class RateLimiter {
  private readonly intervalMs: number;
  private readonly toleranceMs: number;
  /** Theoretical arrival time of the next request (GCRA). */
  private nextArrival = 0;
  private inFlight = 0;
  private readonly waiting: Waiter[] = [];
  /** Set when the provider itself asked us to back off (429 with Retry-After). */
  private pausedUntil = 0;

  constructor(
    private readonly limit: RateLimit,
    private readonly clock: () => number = Date.now,
  ) {
    this.intervalMs = limit.perMs / limit.requests;
    this.toleranceMs = this.intervalMs * (limit.requests - 1);
  }

  /** The provider told us to wait: no request leaves before `until`. */
  pauseUntil(until: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
  }

  /** Waits for a turn; resolves with a release function. `deadline` is the caller's own (epoch ms). */
  async acquire(deadline: number, signal?: AbortSignal): Promise<() => void> {
    const started = this.clock();
    const limitAt = Math.min(deadline, started + this.limit.maxQueueMs);
    await this.takeSlot(limitAt, signal);
    try {
      await this.takeRate(limitAt, signal);
    } catch (error) {
      this.release();
      throw error;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.release();
    };
  }

  private async takeSlot(limitAt: number, signal?: AbortSignal): Promise<void> {
    if (this.inFlight < this.limit.concurrency && this.waiting.length === 0) {
      this.inFlight += 1;
      return;
    }
    const waitMs = limitAt - this.clock();
    if (waitMs <= 0) throw new AdmissionRefused(this.intervalMs, `all ${this.limit.concurrency} request slots are busy`);
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        wake: () => {
          clearTimeout(timer);
          signal?.removeEventListener('abort', onAbort);
          resolve();
        },
      };
      const drop = () => {
        const index = this.waiting.indexOf(waiter);
        if (index >= 0) this.waiting.splice(index, 1);
      };
      const timer = setTimeout(() => {
        drop();
        signal?.removeEventListener('abort', onAbort);
        reject(new AdmissionRefused(Math.max(this.intervalMs, 1_000), `all ${this.limit.concurrency} request slots stayed busy`));
      }, waitMs);
      const onAbort = () => {
        drop();
        clearTimeout(timer);
        reject(signal?.reason ?? new Error('aborted'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(waiter);
    });
    // The slot was handed over by release(): inFlight already counts it.
  }

  private async takeRate(limitAt: number, signal?: AbortSignal): Promise<void> {
    const now = this.clock();
    const arrival = Math.max(this.nextArrival, now);
    const earliest = Math.max(arrival - this.toleranceMs, this.pausedUntil);
    const waitMs = Math.max(0, earliest - now);
    if (now + waitMs > limitAt) {
      throw new AdmissionRefused(waitMs, this.pausedUntil > now ? 'the provider asked us to slow down' : `the limit of ${this.limit.requests} requests per ${this.limit.perMs / 1000} s is reached`);
    }
    this.nextArrival = Math.max(arrival, earliest) + this.intervalMs;
    if (waitMs > 0) await sleep(waitMs, signal);
  }

  private release(): void {
    const next = this.waiting.shift();
    if (next) next.wake();
    else this.inFlight -= 1;
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason ?? new Error('aborted'));
      return;
    }
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason ?? new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
