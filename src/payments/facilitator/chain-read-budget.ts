// How many chain reads verification may make on behalf of callers who have not shown they can pay:
// a token bucket per client address, and one for the whole instance; a read that shows the caller
// can pay is given back. A signature from an empty or unknown address, or a contract wallet's
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

  /** Takes one read for `client` if both its bucket and the instance's have one. */
  take(client: string): boolean {
    const now = this.clock();
    let bucket = this.clients.get(client);
    if (!bucket) {
      if (this.clients.size >= MAX_CLIENTS) this.forgetFull(now);
      bucket = { tokens: this.options.perClient.burst, at: now };
      this.clients.set(client, bucket);
    }
    refill(bucket, now, this.options.perClient);
    refill(this.total, now, this.options.total);
    if (bucket.tokens < 1 || this.total.tokens < 1) return false;
    bucket.tokens -= 1;
    this.total.tokens -= 1;
    return true;
  }

  /**
   * A read that showed the caller can pay is given back: the budget is spent only by reads for
   * addresses that turned out empty and signatures that turned out invalid, so a paying platform
   * onboarding many funded payers from one address is not held back.
   */
  refund(client: string): void {
    const bucket = this.clients.get(client);
    if (bucket) bucket.tokens = Math.min(this.options.perClient.burst, bucket.tokens + 1);
    this.total.tokens = Math.min(this.options.total.burst, this.total.tokens + 1);
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
