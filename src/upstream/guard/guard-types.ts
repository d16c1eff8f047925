// The SSRF guard's settings and verdicts. Every caller-supplied URL (browse, OpenGraph, distill by
// URL, and every request a rendered page makes) passes the guard before any byte leaves.
import type { HostResolver } from '../http/http-types.ts';

export interface GuardPolicy {
  /** Ports a caller URL may name (default 80 and 443; TOOLGATE_FETCH_ALLOWED_PORTS). */
  allowedPorts: readonly number[];
  /** CIDR blocks opened despite the guard (TOOLGATE_SSRF_ALLOW), as written: "127.0.0.1/32". */
  allow: readonly string[];
  resolve: HostResolver;
}

/** Why a URL was refused; every refusal is a 400 to the caller, before any byte leaves. */
export type RefusalReason =
  | 'invalid_url'
  | 'scheme'
  | 'credentials'
  | 'port'
  | 'forbidden_address'
  | 'unresolvable'
  | 'too_many_redirects';
