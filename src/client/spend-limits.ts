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
  /** Deposits this session made, per channel: a refund gives the session back at most these. */
  private readonly channelHeld = new Map<string, bigint>();

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
    return this.hold(tool, amount, payer);
  }

  /**
   * Reserves a payment channel's deposit against the session and the day (not the per-call cap,
   * which applies to each call's price): the money is put aside while the channel is open.
   */
  async reserveDeposit(tool: GatewayTool, amount: bigint, payer: string, channelId: string): Promise<Reservation> {
    const id = channelId.toLowerCase();
    const reservation = await this.hold(tool, amount, payer, { id, kind: 'deposit' });
    this.channelHeld.set(id, (this.channelHeld.get(id) ?? 0n) + amount);
    return reservation;
  }

  /** Throws SpendRefused when a deposit of `amount` would pass the session or daily budget now; reserves nothing. */
  async checkDeposit(tool: GatewayTool, amount: bigint): Promise<void> {
    const { sessionBudget, dailyBudget, record } = this.options;
    if (sessionBudget !== undefined && this.sessionHeld + amount > sessionBudget) throw new SpendRefused('per-session', tool.name, amount, sessionBudget, this.sessionHeld);
    if (dailyBudget !== undefined) {
      const spent = await record.spentToday(tool.network);
      if (spent + amount > dailyBudget) throw new SpendRefused('per-day', tool.name, amount, dailyBudget, spent);
    }
  }

  /** A call paid by voucher: it consumes a deposit already counted, so it only goes into the record's log. */
  async voucher(tool: GatewayTool, charged: bigint, payer: string, channelId: string): Promise<void> {
    await this.options.record.voucher({ network: tool.network, tool: tool.name, payer, channel: channelId, charged });
  }

  /** A channel's unspent part came back: the day (and this session, for deposits it made) get it back. */
  async refunded(channelId: string, amount: bigint): Promise<bigint> {
    const back = await this.options.record.refundChannel(channelId, amount);
    const key = channelId.toLowerCase();
    const held = this.channelHeld.get(key) ?? 0n;
    const fromSession = back < held ? back : held;
    this.sessionHeld -= fromSession;
    this.channelHeld.set(key, held - fromSession);
    return back;
  }

  private async hold(tool: GatewayTool, amount: bigint, payer: string, channel?: { id: string; kind: 'deposit' }): Promise<Reservation> {
    const { sessionBudget, dailyBudget, record } = this.options;
    if (sessionBudget !== undefined && this.sessionHeld + amount > sessionBudget) throw new SpendRefused('per-session', tool.name, amount, sessionBudget, this.sessionHeld);
    this.sessionHeld += amount; // held before the first await: concurrent calls in this process see it
    let reserved: Awaited<ReturnType<SpendRecord['reserve']>>;
    try {
      reserved = await record.reserve({ network: tool.network, tool: tool.name, payer, amount, ...(channel ? { channel } : {}) }, dailyBudget);
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
        if (channel) this.channelHeld.set(channel.id.toLowerCase(), (this.channelHeld.get(channel.id.toLowerCase()) ?? 0n) - amount);
        await record.release(id);
      },
      keep: async () => {
        if (close()) await record.settle(id, 'unknown');
      },
    };
  }
}
