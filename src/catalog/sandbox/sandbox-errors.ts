// How the worker pool's failures reach a caller: as ToolErrors, which are never charged.
import { ToolError } from '../tool.ts';
import { WorkerMemoryError, WorkerPoolBusyError, WorkerTimeoutError } from './worker-pool.ts';

export interface SandboxErrorWording {
  /** Code of a run that hit its time limit, e.g. "regex_timeout". */
  timeoutCode: string;
  /** The sentence after "<what> did not finish within N ms", saying what usually causes it. */
  timeoutHint: string;
  /** What ran, for the messages: "the pattern", "the expression". */
  what: string;
}

/**
 * Translates the pool's own errors; anything else is returned unchanged (an abort's reason, a bug).
 * A run over its time or memory limit is 422, not 408 or 504: the same input would fail the same
 * way again, so it is the input that cannot be processed, not a slow or absent upstream.
 */
export function sandboxToolError(error: unknown, wording: SandboxErrorWording): unknown {
  if (error instanceof WorkerTimeoutError) {
    return new ToolError(422, wording.timeoutCode, `${wording.what} did not finish within ${error.timeLimitMs} ms and was stopped. ${wording.timeoutHint}`, {
      timeLimitMs: error.timeLimitMs,
    });
  }
  if (error instanceof WorkerMemoryError) {
    return new ToolError(422, 'memory_limit_exceeded', `${wording.what} needed more than the ${error.limitMb ?? ''} MB of memory allowed and was stopped.`, {
      memoryLimitMb: error.limitMb,
    });
  }
  if (error instanceof WorkerPoolBusyError) {
    return new ToolError(503, 'busy', 'Every evaluation worker is busy and the waiting line is full; retry in a few seconds.');
  }
  return error;
}
