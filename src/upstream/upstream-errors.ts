// How a provider's failure reaches the caller: a ToolError (so the call is never charged) whose
// status says what kind of failure it was and whose message names the provider.
//   502 the provider answered, but not with something we can sell (error status, malformed,
//       oversize, or a 200 that is really an error: a quota notice, a block page)
//   503 the provider is unreachable or is rate-limiting us (or our own limiter for it is full):
//       Retry-After says when to come back
//   504 the provider did not answer within the time budget
import { NOT_CHARGED, withoutChargeNote } from '../errors/not-charged.ts';
import { ToolError } from '../errors/tool-error.ts';

export type UpstreamFailure = 'bad_answer' | 'unavailable' | 'rate_limited' | 'timeout';

const statusOf: Readonly<Record<UpstreamFailure, 502 | 503 | 504>> = {
  bad_answer: 502,
  unavailable: 503,
  rate_limited: 503,
  timeout: 504,
};

export class UpstreamError extends ToolError {
  constructor(
    readonly failure: UpstreamFailure,
    /** The provider's display name, e.g. "SearXNG". */
    readonly provider: string,
    /** What went wrong, without the provider's name (it is prefixed). */
    reason: string,
    options: { retryAfterSeconds?: number; upstreamStatus?: number } = {},
  ) {
    super(
      statusOf[failure],
      `upstream_${failure}`,
      `${provider}: ${reason}. ${NOT_CHARGED}`,
      { provider, ...(options.upstreamStatus !== undefined ? { upstreamStatus: options.upstreamStatus } : {}) },
      options.retryAfterSeconds,
    );
    this.name = 'UpstreamError';
  }
}

/** The provider answered 200 with something that is not a usable answer (quota notice, block page, error object). */
export function badAnswer(provider: string, reason: string, upstreamStatus?: number): UpstreamError {
  return new UpstreamError('bad_answer', provider, reason, upstreamStatus !== undefined ? { upstreamStatus } : {});
}

/**
 * Every provider a call fanned out to failed: one error naming each. The status is the one that
 * helps the caller most: 504 when all timed out, 503 (with the soonest Retry-After) when any may
 * recover by waiting, else 502.
 */
export function combinedFailure(summary: string, failures: readonly UpstreamError[]): ToolError {
  if (failures.length === 1) return failures[0]!;
  const waits = failures.map((f) => f.retryAfterSeconds).filter((s): s is number => s !== undefined);
  const failure: UpstreamFailure = failures.every((f) => f.failure === 'timeout')
    ? 'timeout'
    : failures.some((f) => f.failure === 'rate_limited' || f.failure === 'unavailable')
      ? 'unavailable'
      : 'bad_answer';
  const reasons = failures.map((f) => withoutChargeNote(f.message).replace(/\.$/, '')).join('; ');
  return new ToolError(
    statusOf[failure],
    `upstream_${failure}`,
    `${summary}: ${reasons}. ${NOT_CHARGED}`,
    { providers: failures.map((f) => f.provider) },
    failure === 'unavailable' && waits.length > 0 ? Math.min(...waits) : undefined,
  );
}
