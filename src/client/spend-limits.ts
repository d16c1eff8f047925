// The caps a payment must fit before it is signed: per call (an explicit --max-price, else the
// price the gateway's own documents advertise for the tool), per session (in memory: the bridge),
// per day (the shared spend record). A reservation holds the amount against the session and the
// day until the outcome is known.
import type { GatewayTool } from './gateway-tools.ts';
import { SpendRefused } from './spend-refusal.ts';
import type { SpendRecord } from './spend-record.ts';

export interface SpendLimitsOptions {
  record: SpendRecord;
  /** Per-call cap, atomic USDC. Unset: the tool's advertised price. */
  maxPrice?: bigint;
  /** Per-day cap per network (UTC day), atomic USDC. Unset: no daily cap (spends are still recorded). */
  dailyBudget?: bigint;
  /** Cap for the life of this object (one bridge process), atomic USDC. */
  sessionBudget?: bigint;
}

export interface Reservation {
  /** The gateway settled the payment. */
  confirm(transaction: string | undefined): Promise<void>;
  /** The gateway did not charge: the amount is free again. */
  release(): Promise<void>;
  /** The outcome is unknown (lost answer, pending settlement): the amount stays counted. */
  keep(): Promise<void>;
}

export class SpendLimits {
  private sessionHeld = 0n;

  constructor(readonly options: SpendLimitsOptions) {}

  perCallCap(tool: GatewayTool): bigint {
    return this.options.maxPrice ?? tool.atomicPrice;
  }

  get sessionSpent(): bigint {
    return this.sessionHeld;
  }

  /** Throws SpendRefused when `amount` would pass a cap now; reserves nothing (for --dry-run). */
  async check(tool: GatewayTool, amount: bigint): Promise<void> {
    const perCall = this.perCallCap(tool);
    if (amount > perCall) throw new SpendRefused('per-call', tool.name, amount, perCall, 0n);
    const { sessionBudget, dailyBudget, record } = this.options;
    if (sessionBudget !== undefined && this.sessionHeld + amount > sessionBudget) throw new SpendRefused('per-session', tool.name, amount, sessionBudget, this.sessionHeld);
    if (dailyBudget !== undefined) {
      const spent = await record.spentToday(tool.network);
      if (spent + amount > dailyBudget) throw new SpendRefused('per-day', tool.name, amount, dailyBudget, spent);
    }
  }

  /** Reserves `amount` against every cap, or throws SpendRefused with nothing reserved. */
  async reserve(tool: GatewayTool, amount: bigint, payer: string): Promise<Reservation> {
    const perCall = this.perCallCap(tool);
    if (amount > perCall) throw new SpendRefused('per-call', tool.name, amount, perCall, 0n);
    const { sessionBudget, dailyBudget, record } = this.options;
    if (sessionBudget !== undefined && this.sessionHeld + amount > sessionBudget) throw new SpendRefused('per-session', tool.name, amount, sessionBudget, this.sessionHeld);
    this.sessionHeld += amount; // held before the first await: concurrent calls in this process see it
    let reserved: Awaited<ReturnType<SpendRecord['reserve']>>;
    try {
      reserved = await record.reserve({ network: tool.network, tool: tool.name, payer, amount }, dailyBudget);
    } catch (error) {
      this.sessionHeld -= amount;
      throw error;
    }
    if ('refused' in reserved) {
      this.sessionHeld -= amount;
      throw new SpendRefused('per-day', tool.name, amount, dailyBudget ?? 0n, reserved.spent);
    }
    const { id } = reserved;
    let open = true;
    const close = () => {
      if (!open) return false;
      open = false;
      return true;
    };
    return {
      confirm: async (transaction) => {
        if (close()) await record.settle(id, 'spent', transaction);
      },
      release: async () => {
        if (!close()) return;
        this.sessionHeld -= amount;
        await record.release(id);
      },
      keep: async () => {
        if (close()) await record.settle(id, 'unknown');
      },
    };
  }
}
