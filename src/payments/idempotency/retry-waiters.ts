// Retries waiting for the first attempt of their payment-identifier to end. Their number is capped
// per identifier and per instance, so retries cannot be multiplied into load; and the attempts this
// instance runs wake their waiters when they end, so nobody polls for them.

/** Retries of one identifier that may be checked or wait at once; past it: 409 in progress. */
export const RETRY_WAITERS_PER_IDENTIFIER = 8;
/** Retries, all identifiers together, that may be checked or wait at once on one instance. */
export const RETRY_WAITERS_TOTAL = 256;

export interface RetryWaiterLimits {
  perIdentifier: number;
  total: number;
}

/** A retry's place among the waiters of its identifier, held until `leave`. */
export interface RetrySlot {
  /** Resolves after `ms`, or as soon as an attempt of this identifier on this instance ends: `true` if woken. */
  wait(ms: number): Promise<boolean>;
  leave(): void;
}

interface Entry {
  slots: number;
  attempts: number;
  sleepers: Set<() => void>;
}

export class RetryWaiters {
  private readonly entries = new Map<string, Entry>();
  private total = 0;
  private readonly limits: RetryWaiterLimits;

  constructor(limits: Partial<RetryWaiterLimits> = {}) {
    this.limits = { perIdentifier: limits.perIdentifier ?? RETRY_WAITERS_PER_IDENTIFIER, total: limits.total ?? RETRY_WAITERS_TOTAL };
  }

  /** A slot for a retry of `identifier`; undefined when the identifier or the instance has no slot left. */
  join(identifier: string): RetrySlot | undefined {
    const entry = this.entry(identifier);
    if (entry.slots >= this.limits.perIdentifier || this.total >= this.limits.total) {
      this.dropIfIdle(identifier, entry);
      return undefined;
    }
    entry.slots += 1;
    this.total += 1;
    let left = false;
    return {
      wait: (ms) =>
        new Promise<boolean>((resolve) => {
          const wake = () => {
            clearTimeout(timer);
            entry.sleepers.delete(wake);
            resolve(true);
          };
          const timer = setTimeout(() => {
            entry.sleepers.delete(wake);
            resolve(false);
          }, ms);
          entry.sleepers.add(wake);
        }),
      leave: () => {
        if (left) return;
        left = true;
        entry.slots -= 1;
        this.total -= 1;
        this.dropIfIdle(identifier, entry);
      },
    };
  }

  /** This instance starts an attempt carrying `identifier`; the function returned says it ended (whichever way). */
  attemptStarted(identifier: string): () => void {
    const entry = this.entry(identifier);
    entry.attempts += 1;
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      entry.attempts -= 1;
      for (const wake of [...entry.sleepers]) wake();
      this.dropIfIdle(identifier, entry);
    };
  }

  /** Whether an attempt carrying `identifier` is running on this instance. */
  runningHere(identifier: string): boolean {
    return (this.entries.get(identifier)?.attempts ?? 0) > 0;
  }

  /** Retries holding a slot, all identifiers together. */
  get waiting(): number {
    return this.total;
  }

  private entry(identifier: string): Entry {
    let entry = this.entries.get(identifier);
    if (!entry) {
      entry = { slots: 0, attempts: 0, sleepers: new Set() };
      this.entries.set(identifier, entry);
    }
    return entry;
  }

  private dropIfIdle(identifier: string, entry: Entry): void {
    if (entry.slots === 0 && entry.attempts === 0 && this.entries.get(identifier) === entry) this.entries.delete(identifier);
  }
}
