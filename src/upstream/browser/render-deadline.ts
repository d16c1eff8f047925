// One render's time budget and its end: a single signal that fires when the overall timeout
// passes, when the caller aborts, or when the render is over, carrying the error to report.
import { RenderAbortedError, RenderTimeoutError } from './render-errors.ts';

export class RenderDeadline {
  readonly endsAt: number;
  private readonly controller = new AbortController();
  private readonly timer: NodeJS.Timeout;
  private stage = 'waiting for a free slot';
  private readonly onCallerAbort = () => this.controller.abort(new RenderAbortedError());

  constructor(
    readonly timeoutMs: number,
    private readonly callerSignal?: AbortSignal,
  ) {
    this.endsAt = Date.now() + timeoutMs;
    this.timer = setTimeout(() => this.controller.abort(this.timedOut()), timeoutMs);
    if (callerSignal?.aborted) this.onCallerAbort();
    else callerSignal?.addEventListener('abort', this.onCallerAbort, { once: true });
  }

  /** Aborts on timeout (reason RenderTimeoutError), caller abort (RenderAbortedError) or when the render is over. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** Names what the render is doing, for the timeout's message. */
  enter(stage: string): void {
    this.stage = stage;
  }

  timeLeftMs(): number {
    return Math.max(1, this.endsAt - Date.now());
  }

  timedOut(): RenderTimeoutError {
    return new RenderTimeoutError(this.timeoutMs, this.stage);
  }

  /** The error the render ended with, if the timeout or the caller ended it. */
  endedBy(): RenderTimeoutError | RenderAbortedError | undefined {
    const reason: unknown = this.controller.signal.reason;
    return reason instanceof RenderTimeoutError || reason instanceof RenderAbortedError ? reason : undefined;
  }

  /** The render is over: whatever still runs for it (a fetch, a close) is told to stop. */
  finish(): void {
    clearTimeout(this.timer);
    this.callerSignal?.removeEventListener('abort', this.onCallerAbort);
    if (!this.controller.signal.aborted) this.controller.abort(new Error('the render is over'));
  }
}
