// Below both the catalogue and the upstream layer: tools throw it, and so do the clients and the
// guarded fetch they call.
/**
 * A failure a tool reports on purpose. `status` is the HTTP status the caller sees; a caller is
 * never charged for it.
 */
export class ToolError extends Error {
  constructor(
    readonly status: 400 | 404 | 413 | 422 | 500 | 502 | 503 | 504,
    readonly code: string,
    message: string,
    readonly details?: Readonly<Record<string, unknown>>,
    /** For a 503: when the caller may try again, in seconds (sent as Retry-After). */
    readonly retryAfterSeconds?: number,
  ) {
    super(message);
    this.name = 'ToolError';
  }
}
