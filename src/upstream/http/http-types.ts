// The shapes of one HTTP exchange with the outside world, shared by provider calls (operator-chosen
// hosts) and guarded page fetches (caller-supplied URLs).

/** One resolved address of a host. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to all its addresses (tests inject their own; the default is node:dns lookup with all: true). */
export type HostResolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface RawRequest {
  url: URL;
  method?: 'GET' | 'POST' | 'HEAD';
  headers?: Readonly<Record<string, string>>;
  body?: string | Buffer;
  /** Connect to exactly this address (already checked); the URL's host still goes in Host and in TLS SNI. */
  pinnedAddress?: ResolvedAddress;
  /** The whole exchange (connect, headers, body) must finish within this; then it fails with 'timeout'. */
  timeoutMs: number;
  /** Largest decoded body read; beyond it the body is cut and `truncated` is true. */
  maxBytes: number;
  signal?: AbortSignal;
  /** Asked once the headers are in: false leaves the body unread (the connection is closed) and sets `bodySkipped`. */
  wantsBody?: (status: number, headers: Readonly<Record<string, string>>) => boolean;
}

export interface RawResponse {
  url: URL;
  status: number;
  /** Lower-case names; repeated headers joined with ", " (set-cookie dropped). */
  headers: Readonly<Record<string, string>>;
  /** Decoded (gzip, deflate, br) body, at most maxBytes. */
  body: Buffer;
  /** True when the body was longer than maxBytes and was cut. */
  truncated: boolean;
  /** True when `wantsBody` declined the body: `body` is empty and nothing of it was read. */
  bodySkipped?: boolean;
  /** The address the connection went to. */
  remoteAddress: string | undefined;
}

export type RawFetchFailure = 'timeout' | 'aborted' | 'connect_failed' | 'reset' | 'dns_failed' | 'protocol_error';

/** A failure before a complete answer arrived. */
export class RawFetchError extends Error {
  constructor(
    readonly failure: RawFetchFailure,
    message: string,
  ) {
    super(message);
    this.name = 'RawFetchError';
  }
}
