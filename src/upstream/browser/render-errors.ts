// How a render fails on its own account (the page's fetch errors are thrown as they came).

/** The render did not finish within its timeoutMs (queue wait and browser launch included). */
export class RenderTimeoutError extends Error {
  constructor(
    readonly timeoutMs: number,
    /** Where the time ran out: queued, launching, loading, settling or reading. */
    readonly stage: string,
  ) {
    super(`rendering did not finish within ${timeoutMs} ms (while ${stage})`);
    this.name = 'RenderTimeoutError';
  }
}

/** The caller's signal aborted the render. */
export class RenderAbortedError extends Error {
  constructor() {
    super('the render was aborted');
    this.name = 'RenderAbortedError';
  }
}

/** No browser to render with: Chromium is missing, would not start, died mid-render, or the renderer was closed. */
export class RenderUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`page rendering is unavailable: ${reason}`);
    this.name = 'RenderUnavailableError';
  }
}
