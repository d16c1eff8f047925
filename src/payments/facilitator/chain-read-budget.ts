// How many chain reads verification may make on behalf of callers who have not shown they can pay:
// a token bucket per client address, and one for the whole instance, charged only by reads that
// found no funds or a refused signature. A signature from an empty or unknown address, or a contract wallet's
// signature, each costs the node a call: without a budget, free requests could use up a
// rate-limited RPC endpoint that paid verifications and settlements need (docs/payments.md, "What
// an unpaid request may cost us").

export interface ChainReadBudgetOptions {
  perClient: { burst: number; perSecond: number };
  total: { burst: number; perSecond: number };
  clock?: () => number;
}

interface Bucket {
  tokens: number;
  at: number;
}

const MAX_CLIENTS = 50_000;

export class ChainReadBudget {
  private readonly clients = new Map<string, Bucket>();
  private readonly total: Bucket;
  private readonly clock: () => number;

  constructor(private readonly options: ChainReadBudgetOptions) {
    this.clock = options.clock ?? Date.now;
    this.total = { tokens: options.total.burst, at: this.clock() };
  }

  /** Whether a read for `client` may go out now: its bucket and the instance's each hold a token. */
  allows(client: string): boolean {
    const now = this.clock();
    refill(this.total, now, this.options.total);
    const bucket = this.clients.get(client);
    if (bucket) refill(bucket, now, this.options.perClient);
    return (bucket?.tokens ?? this.options.perClient.burst) >= 1 && this.total.tokens >= 1;
  }

  /**
   * A read found no funds, or a signature the chain refused: it is charged to the client and the
   * instance. Reads that showed the caller can pay are never charged, so a platform onboarding many
   * funded payers at once from one address is not held back. Reads sent together before their
   * charges land can take a bucket below zero; the overdraft is repaid at the refill rate, so over
   * time the reads for callers who cannot pay stay within it.
   */
  charge(client: string): void {
    const now = this.clock();
    let bucket = this.clients.get(client);
    if (!bucket) {
      if (this.clients.size >= MAX_CLIENTS) this.forgetFull(now);
      bucket = { tokens: this.options.perClient.burst, at: now };
      this.clients.set(client, bucket);
    }
    refill(bucket, now, this.options.perClient);
    refill(this.total, now, this.options.total);
    bucket.tokens -= 1;
    this.total.tokens -= 1;
  }

  /** Buckets that have refilled carry nothing worth keeping. */
  private forgetFull(now: number): void {
    for (const [client, bucket] of this.clients) {
      refill(bucket, now, this.options.perClient);
      if (bucket.tokens >= this.options.perClient.burst) this.clients.delete(client);
    }
    if (this.clients.size >= MAX_CLIENTS) this.clients.clear();
  }
}

function refill(bucket: Bucket, now: number, rate: { burst: number; perSecond: number }): void {
  bucket.tokens = Math.min(rate.burst, bucket.tokens + ((now - bucket.at) / 1000) * rate.perSecond);
  bucket.at = now;
}
