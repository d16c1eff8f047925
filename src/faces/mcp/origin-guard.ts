// DNS-rebinding guard for the MCP endpoints (the SDK does no Origin check): a present Origin must be
// allowed, and so must the Host. Localhost is allowed by default, and so is the public base URL;
// requests without an Origin (non-browser clients) pass the Origin check.
import { LOOPBACK_NAMES, hostnameOf } from '../host-names.ts';

export interface OriginPolicy {
  /** Allowed origins ("https://app.example"), or "*" for any. */
  allowedOrigins: readonly string[];
  /** Allowed Host names (without port), or "*" for any. */
  allowedHosts: readonly string[];
}

export function originPolicy(publicBaseUrl: string, extraOrigins: readonly string[], extraHosts: readonly string[]): OriginPolicy {
  const base = new URL(publicBaseUrl);
  return {
    allowedOrigins: [base.origin, ...extraOrigins.map((o) => (o === '*' ? o : o.replace(/\/+$/, '').toLowerCase()))],
    allowedHosts: [base.hostname.toLowerCase(), ...extraHosts.map((h) => h.toLowerCase())],
  };
}

/** Why a request is refused, or undefined when it may pass. */
export function refuseOrigin(policy: OriginPolicy, origin: string | undefined, host: string | undefined): string | undefined {
  if (!policy.allowedHosts.includes('*')) {
    const hostname = host ? hostnameOf(host) : '';
    if (!LOOPBACK_NAMES.has(hostname) && !policy.allowedHosts.includes(hostname)) return `Host "${host ?? ''}" is not allowed`;
  }
  if (origin === undefined || policy.allowedOrigins.includes('*')) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(origin);
  } catch {
    return `Origin "${origin}" is not allowed`;
  }
  if (LOOPBACK_NAMES.has(parsed.hostname.toLowerCase())) return undefined;
  return policy.allowedOrigins.includes(parsed.origin.toLowerCase()) ? undefined : `Origin "${origin}" is not allowed`;
}
