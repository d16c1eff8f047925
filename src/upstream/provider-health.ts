// What /health shows of each provider: whether it is configured, when it last answered well and
// badly, and how often it failed. Counters are per process, since start.

export interface ProviderCounters {
  calls: number;
  failures: number;
  cacheHits: number;
  staleServed: number;
  lastSuccessAt?: string;
  lastFailureAt?: string;
  lastError?: string;
}

export interface ProviderHealth extends ProviderCounters {
  id: string;
  name: string;
  configured: boolean;
}

export class ProviderStats {
  private counters: ProviderCounters = ProviderStats.empty();

  static empty(): ProviderCounters {
    return { calls: 0, failures: 0, cacheHits: 0, staleServed: 0 };
  }

  success(at: number): void {
    this.counters.calls += 1;
    this.counters.lastSuccessAt = new Date(at).toISOString();
  }

  failure(at: number, message: string): void {
    this.counters.calls += 1;
    this.counters.failures += 1;
    this.counters.lastFailureAt = new Date(at).toISOString();
    this.counters.lastError = message;
  }

  cacheHit(): void {
    this.counters.cacheHits += 1;
  }

  staleServed(): void {
    this.counters.staleServed += 1;
  }

  snapshot(): ProviderCounters {
    return { ...this.counters };
  }
}
