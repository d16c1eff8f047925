// A bounded cache of provider answers. An entry is fresh for its TTL; after that it is kept for a
// while longer, only to be served (marked stale) when the provider fails.

export interface CacheEntry<V> {
  value: V;
  fetchedAt: number;
  /** Served without asking the provider until then. */
  freshUntil: number;
  /** Kept, as a fallback for a failing provider, until then. */
  keepUntil: number;
}

export class TtlCache<V> {
  private readonly entries = new Map<string, CacheEntry<V>>();

  constructor(private readonly maxEntries: number) {}

  get(key: string, now: number): CacheEntry<V> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.keepUntil <= now) {
      this.entries.delete(key);
      return undefined;
    }
    // Map order is insertion order: re-inserting marks the entry as recently used.
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  set(key: string, value: V, fetchedAt: number, ttlMs: number, staleForMs: number): void {
    if (ttlMs <= 0 && staleForMs <= 0) return;
    this.entries.delete(key);
    this.entries.set(key, { value, fetchedAt, freshUntil: fetchedAt + ttlMs, keepUntil: fetchedAt + ttlMs + staleForMs });
    while (this.entries.size > this.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}
