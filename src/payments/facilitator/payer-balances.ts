// A payer's USDC balance as this process knows it, so verification needs no chain read per call:
// the balance read from the chain (fresh for `ttlMs`) minus what this process has admitted and not
// yet seen settle. A call that would go past it reads the chain again. The view can only be wrong
// towards the payer having less than thought (money spent elsewhere since the read): then the
// settlement's simulation refuses the payment, the result is withheld and nothing is charged.

interface Entry {
  balance: bigint;
  readAt: number;
  /** Admitted here and not yet finished. */
  inFlight: bigint;
}

const MAX_ENTRIES = 50_000;

/**
 * A balance that was just read and did not suffice is not read again before this: an empty address
 * sending signature after signature costs the node one read a second, not one per request.
 */
export const RECHECK_SHORT_BALANCE_MS = 1_000;

export class PayerBalances {
  private readonly entries = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly clock: () => number = Date.now,
  ) {}

  /**
   * Reserves `value` for `payer` if its balance covers it and what is in flight; reads the balance
   * with `read` when the known one is stale or does not suffice. Returns the balance judged by.
   */
  async admit(payer: string, value: bigint, read: () => Promise<bigint>): Promise<{ admitted: boolean; balance: bigint }> {
    const key = payer.toLowerCase();
    let entry = this.entries.get(key);
    const age = entry === undefined ? Infinity : this.clock() - entry.readAt;
    const short = entry !== undefined && entry.balance - entry.inFlight < value;
    if (age >= this.ttlMs || (short && age >= RECHECK_SHORT_BALANCE_MS)) {
      const balance = await read();
      entry = this.entries.get(key) ?? { balance, readAt: 0, inFlight: 0n };
      entry.balance = balance;
      entry.readAt = this.clock();
      this.entries.set(key, entry);
      this.prune();
    }
    if (!entry) throw new Error('unreachable: the balance was just read');
    const available = entry.balance - entry.inFlight;
    if (available < value) return { admitted: false, balance: available };
    entry.inFlight += value;
    return { admitted: true, balance: available };
  }

  /** An admitted payment is over: `moved` if its USDC left the payer (settled, or possibly: pending). */
  finish(payer: string, value: bigint, moved: boolean): void {
    const entry = this.entries.get(payer.toLowerCase());
    if (!entry) return;
    entry.inFlight = entry.inFlight > value ? entry.inFlight - value : 0n;
    if (moved) entry.balance -= value;
  }

  /** What this process has admitted for `payer` and not yet seen finish. */
  inFlight(payer: string): bigint {
    return this.entries.get(payer.toLowerCase())?.inFlight ?? 0n;
  }

  /** A balance read from the chain just now (by a fresh check): it replaces the cached one. */
  observe(payer: string, balance: bigint): void {
    const entry = this.entries.get(payer.toLowerCase());
    if (!entry) return;
    entry.balance = balance;
    entry.readAt = this.clock();
  }

  /** The chain refused one of this payer's payments: its cached balance is no longer trusted. */
  forget(payer: string): void {
    const entry = this.entries.get(payer.toLowerCase());
    if (entry) entry.readAt = -Infinity;
  }

  private prune(): void {
    if (this.entries.size <= MAX_ENTRIES) return;
    for (const [key, entry] of this.entries) {
      if (entry.inFlight === 0n) this.entries.delete(key);
      if (this.entries.size <= MAX_ENTRIES / 2) return;
    }
  }
}
