// What happened to every tool call, counted in memory per process: calls, paid calls, refusals and
// failures by kind. Money is not counted here: the ledger is the record of payments.
import type { GateOutcome } from './gate-outcome.ts';

export type CallOutcomeKind = GateOutcome['kind'];

export interface CallEvent {
  tool: string;
  face: 'http' | 'mcp';
  kind: CallOutcomeKind;
  /** Error or refusal code when not paid (e.g. invalid_input, tool_timeout, insufficient_funds). */
  code?: string;
  /** The call's price in USDC (decimal), for revenue. */
  price?: string;
  at: Date;
  durationMs: number;
}

export interface ToolCallCounts {
  calls: number;
  byKind: Partial<Record<CallOutcomeKind, number>>;
  byCode: Record<string, number>;
  totalDurationMs: number;
}

const RECENT_EVENTS = 200;

export class CallMetrics {
  readonly startedAt = new Date();
  private readonly perTool = new Map<string, ToolCallCounts>();
  private readonly recentEvents: CallEvent[] = [];
  /** Also told of every call (the Prometheus metrics). */
  onRecord: ((event: CallEvent) => void) | undefined;

  record(event: CallEvent): void {
    this.onRecord?.(event);
    let counts = this.perTool.get(event.tool);
    if (!counts) {
      counts = { calls: 0, byKind: {}, byCode: {}, totalDurationMs: 0 };
      this.perTool.set(event.tool, counts);
    }
    counts.calls += 1;
    counts.byKind[event.kind] = (counts.byKind[event.kind] ?? 0) + 1;
    if (event.code) counts.byCode[event.code] = (counts.byCode[event.code] ?? 0) + 1;
    counts.totalDurationMs += event.durationMs;
    this.recentEvents.push(event);
    if (this.recentEvents.length > RECENT_EVENTS) this.recentEvents.shift();
  }

  tools(): ReadonlyMap<string, Readonly<ToolCallCounts>> {
    return this.perTool;
  }

  recent(): readonly CallEvent[] {
    return this.recentEvents;
  }
}

/** The code that names why a call was not paid for, if any. */
export function outcomeCode(outcome: GateOutcome): string | undefined {
  switch (outcome.kind) {
    case 'paid':
      return outcome.replayed ? 'replayed' : undefined;
    case 'refunded':
      return undefined;
    case 'invalid_input':
      return 'invalid_input';
    case 'not_implemented':
      return 'not_implemented';
    case 'payment_required':
    case 'invalid_payment':
      return outcome.paymentRequired.error?.split(':')[0];
    case 'settlement_failed':
      return outcome.settlement.errorReason ?? 'settlement_failed';
    case 'tool_failed':
    case 'unavailable':
    case 'conflict':
      return outcome.code;
  }
}
