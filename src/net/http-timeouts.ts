// How long a client may take to send a request. Node's requestTimeout counts until the whole
// request (headers and body) is received, not until it is answered: a tool that runs long, or an
// SSE stream, is not cut by it. Node checks for expired requests every connectionsCheckingInterval
// (30 s by default, which made a 60 s header limit act after up to ~90 s), so the check runs
// often enough for the limits to hold within a fraction of themselves.
import type { ServerOptions } from 'node:http';

export interface HttpTimeouts {
  /** From a request's first byte until its headers are complete. */
  headersMs: number;
  /** From a request's first byte until its body is complete. */
  requestMs: number;
}

export function serverTimeoutOptions(timeouts: HttpTimeouts): Pick<ServerOptions, 'headersTimeout' | 'requestTimeout' | 'connectionsCheckingInterval'> {
  return {
    headersTimeout: timeouts.headersMs,
    requestTimeout: timeouts.requestMs,
    connectionsCheckingInterval: Math.max(25, Math.min(1_000, Math.floor(timeouts.headersMs / 4))),
  };
}
