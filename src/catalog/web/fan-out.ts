// Asks several providers at once for one call. Each answers or fails on its own; one that is
// still working when the call's budget for the fan-out ends is cut off and counted as too slow,
// so one slow engine does not hold the others' results back. Only when every provider failed
// does the call fail (not charged), with an error naming each.
import type { ProviderAnswer } from '../../upstream/provider-call.ts';
import type { ProviderDefinition } from '../../upstream/provider.ts';
import { combinedFailure, UpstreamError } from '../../upstream/upstream-errors.ts';
import { ToolError } from '../tool.ts';

export interface FanOutTask<T> {
  provider: ProviderDefinition;
  run(signal: AbortSignal): Promise<ProviderAnswer<T>>;
}

export interface FanOutAnswer<T> {
  provider: ProviderDefinition;
  answer: ProviderAnswer<T>;
}

export interface FanOutFailure {
  provider: ProviderDefinition;
  error: UpstreamError;
}

export interface FanOutOutcome<T> {
  answers: FanOutAnswer<T>[];
  failures: FanOutFailure[];
}

/** How an engine did, for the answer: which answered (with how many results), which failed and why. */
export interface EngineReport {
  engine: string;
  name: string;
  status: 'ok' | 'failed';
  results?: number;
  error?: string;
}

export async function fanOut<T>(tasks: readonly FanOutTask<T>[], options: { signal: AbortSignal; budgetMs: number; summary: string }): Promise<FanOutOutcome<T>> {
  const cutOff = new AbortController();
  const timer = setTimeout(() => cutOff.abort(), Math.max(0, options.budgetMs));
  const signal = AbortSignal.any([options.signal, cutOff.signal]);
  try {
    const settled = await Promise.allSettled(tasks.map((task) => task.run(signal)));
    if (options.signal.aborted) throw options.signal.reason;
    const answers: FanOutAnswer<T>[] = [];
    const failures: FanOutFailure[] = [];
    settled.forEach((result, index) => {
      const provider = tasks[index]!.provider;
      if (result.status === 'fulfilled') answers.push({ provider, answer: result.value });
      else if (result.reason instanceof UpstreamError) {
        failures.push({ provider, error: cutOff.signal.aborted && result.reason.failure === 'timeout' ? tooSlow(provider, options.budgetMs) : result.reason });
      } else if (cutOff.signal.aborted) failures.push({ provider, error: tooSlow(provider, options.budgetMs) });
      else throw result.reason;
    });
    if (answers.length === 0) {
      if (failures.length === 0) throw new ToolError(503, 'upstream_unavailable', `${options.summary}: no provider is configured on this gateway. You were not charged.`);
      throw combinedFailure(options.summary, failures.map((failure) => failure.error));
    }
    return { answers, failures };
  } finally {
    clearTimeout(timer);
  }
}

function tooSlow(provider: ProviderDefinition, budgetMs: number): UpstreamError {
  return new UpstreamError('timeout', provider.name, `it did not answer within the ${budgetMs} ms this call gives each engine`);
}

export function engineReports<T>(outcome: FanOutOutcome<T>, count: (value: T) => number): EngineReport[] {
  return [
    ...outcome.answers.map(({ provider, answer }) => ({ engine: provider.id, name: provider.name, status: 'ok' as const, results: count(answer.value) })),
    ...outcome.failures.map(({ provider, error }) => ({ engine: provider.id, name: provider.name, status: 'failed' as const, error: error.message })),
  ];
}
