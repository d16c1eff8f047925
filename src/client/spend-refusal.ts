// A payment the client refused to sign because it would pass a cap. Carries what a person (or an
// agent) needs to decide: the price, the cap, what was already spent, and how to raise the cap.
import { formatUsdc } from './usdc-amount.ts';

export type CapName = 'per-call' | 'per-session' | 'per-day';

const howToRaise: Readonly<Record<CapName, string>> = {
  'per-call': 'raise it with --max-price <USDC> (or maxPrice in the library)',
  'per-session': 'raise it with --session-budget <USDC> when starting `toolgate mcp`',
  'per-day': 'raise it with --daily-budget <USDC> or TOOLGATE_DAILY_BUDGET (or dailyBudget in the library)',
};

export class SpendRefused extends Error {
  constructor(
    readonly cap: CapName,
    readonly tool: string,
    /** What the gateway asks, atomic USDC. */
    readonly price: bigint,
    /** The cap, atomic USDC. */
    readonly limit: bigint,
    /** Already spent or reserved against this cap, atomic USDC (0 for the per-call cap). */
    readonly spent: bigint,
  ) {
    const detail =
      cap === 'per-call'
        ? `${tool} costs ${formatUsdc(price)} USDC, above the per-call cap of ${formatUsdc(limit)} USDC`
        : `${tool} costs ${formatUsdc(price)} USDC; ${formatUsdc(spent)} of the ${cap === 'per-day' ? 'daily' : 'session'} budget of ${formatUsdc(limit)} USDC is already spent, ${formatUsdc(limit - spent < 0n ? 0n : limit - spent)} left`;
    super(`refused, nothing signed: ${detail}; ${howToRaise[cap]}`);
    this.name = 'SpendRefused';
  }

  toJSON() {
    return { error: 'spend_refused', cap: this.cap, tool: this.tool, price: formatUsdc(this.price), limit: formatUsdc(this.limit), spent: formatUsdc(this.spent), message: this.message };
  }
}
