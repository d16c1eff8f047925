// What this instance remembers of payers whose payments the chain refused, so that a refusal
// costs the payer its free tool runs instead of costing us ours:
// - refused by the settlement's simulation (nonce used or cancelled, balance gone, signature no
//   longer accepted): on probation. Each of its payments is checked against the chain (fresh
//   nonce state and balance) before its tool runs, one at a time.
// - failed on chain after the simulation said yes (a payer whose code decides the outcome): cooling
//   down, refused before any work. Such failures also draw on a budget per hour for the whole
//   instance, which bounds the gas an attacker can make us burn (docs/payments.md).

export interface PayerStandingOptions {
  probationMs: number;
  cooldownMs: number;
  /** On-chain settlement failures this instance accepts per hour before it pauses contract payers. */
  chainFailuresPerHour: number;
  clock?: () => number;
}

const MAX_REMEMBERED = 100_000;
const HOUR_MS = 3_600_000;

export class PayerStanding {
  private readonly probation = new Map<string, number>();
  private readonly cooldown = new Map<string, number>();
  private readonly probationInFlight = new Set<string>();
  private chainFailures: number[] = [];
  private readonly clock: () => number;

  constructor(private readonly options: PayerStandingOptions) {
    this.clock = options.clock ?? Date.now;
  }

  /** Why this payer is refused before any work, or undefined. */
  refusal(payer: string): string | undefined {
    const until = this.live(this.cooldown, payer);
    if (until === undefined) return undefined;
    const seconds = Math.ceil((until - this.clock()) / 1000);
    return `payer_cooling_down: a settlement from ${payer} failed on chain after its simulation succeeded; this payer's payments are refused for ${seconds} s more. Nothing was charged.`;
  }

  onProbation(payer: string): boolean {
    return this.live(this.probation, payer) !== undefined;
  }

  /** A payer on probation runs one payment at a time: false if one is already in flight. */
  enterProbationRun(payer: string): boolean {
    const key = payer.toLowerCase();
    if (this.probationInFlight.has(key)) return false;
    this.probationInFlight.add(key);
    return true;
  }

  leaveProbationRun(payer: string): void {
    this.probationInFlight.delete(payer.toLowerCase());
  }

  /** The settlement's simulation refused one of this payer's payments. */
  refusedByChain(payer: string): void {
    this.remember(this.probation, payer, this.options.probationMs);
  }

  /** One of this payer's settlements was sent and failed on chain. */
  failedOnChain(payer: string): void {
    this.remember(this.cooldown, payer, this.options.cooldownMs);
    this.remember(this.probation, payer, this.options.cooldownMs + this.options.probationMs);
    this.chainFailures.push(this.clock());
  }

  /** Refused before any work for the cooldown, without drawing on the hour's budget. */
  coolDown(payer: string): void {
    this.remember(this.cooldown, payer, this.options.cooldownMs);
  }

  /** Whether the hour's budget of on-chain failures still has room. */
  chainFailureBudgetLeft(): boolean {
    const since = this.clock() - HOUR_MS;
    this.chainFailures = this.chainFailures.filter((at) => at > since);
    return this.chainFailures.length < this.options.chainFailuresPerHour;
  }

  private live(map: Map<string, number>, payer: string): number | undefined {
    const key = payer.toLowerCase();
    const until = map.get(key);
    if (until === undefined) return undefined;
    if (until > this.clock()) return until;
    map.delete(key);
    return undefined;
  }

  private remember(map: Map<string, number>, payer: string, forMs: number): void {
    const key = payer.toLowerCase();
    const until = this.clock() + forMs;
    map.set(key, Math.max(map.get(key) ?? 0, until));
    if (map.size <= MAX_REMEMBERED) return;
    const now = this.clock();
    for (const [k, u] of map) if (u <= now) map.delete(k);
    // Still full of live entries: the oldest go first (a Map iterates in insertion order).
    for (const k of map.keys()) {
      if (map.size <= MAX_REMEMBERED) break;
      map.delete(k);
    }
  }
}
