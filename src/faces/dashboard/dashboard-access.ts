// Who sees what on the dashboard. Aggregates are public; payer addresses, transaction hashes and
// anything that identifies a caller need the detailed view:
//   - a configured token, presented as `Authorization: Bearer <token>` (compared in constant time);
//   - or, with no token configured on the local network, a request from loopback to a loopback
//     Host, from no browser Origin or a loopback one (so a web page the merchant happens to visit,
//     or a DNS-rebound name, cannot read the detail through the gateway's open CORS).
// A token that is configured and not presented never opens the detail; a wrong one is refused.
import { createHash, timingSafeEqual } from 'node:crypto';
import type { NetworkName } from '../../payments/networks.ts';
import { LOOPBACK_NAMES, hostnameOf } from '../host-names.ts';

export type DashboardAccess =
  | { level: 'detailed'; via: 'token' | 'loopback' }
  | { level: 'public'; reason: string }
  /** A token was presented and is wrong (or none is configured): answer 401, show nothing more. */
  | { level: 'refused'; reason: string };

export interface AccessPolicy {
  token: string | undefined;
  network: NetworkName;
}

export interface AccessRequest {
  authorization: string | undefined;
  /** The caller's address as Fastify resolved it (socket, or a trusted proxy's X-Forwarded-For). */
  ip: string;
  host: string | undefined;
  origin: string | undefined;
}


export function isLoopbackIp(ip: string): boolean {
  const bare = ip.startsWith('::ffff:') ? ip.slice('::ffff:'.length) : ip;
  return bare === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(bare);
}

function isLoopbackHost(host: string | undefined): boolean {
  if (!host) return false;
  const name = hostnameOf(host);
  return LOOPBACK_NAMES.has(name) || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(name) || name.endsWith('.localhost');
}

function isLoopbackOrigin(origin: string): boolean {
  if (!URL.canParse(origin)) return false;
  return isLoopbackHost(new URL(origin).host);
}

/** Equal in constant time with respect to the secret's content (hashing first hides its length too). */
export function tokensMatch(presented: string, expected: string): boolean {
  const digest = (value: string) => createHash('sha256').update(value, 'utf8').digest();
  return timingSafeEqual(digest(presented), digest(expected));
}

function bearerToken(authorization: string | undefined): string | undefined {
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  return match?.[1];
}

export function dashboardAccess(policy: AccessPolicy, request: AccessRequest): DashboardAccess {
  const presented = bearerToken(request.authorization);
  if (request.authorization !== undefined && presented === undefined) {
    return { level: 'refused', reason: 'the Authorization header must be "Bearer <token>"' };
  }
  if (presented !== undefined) {
    if (policy.token === undefined) return { level: 'refused', reason: 'no dashboard token is configured on this gateway (TOOLGATE_DASHBOARD_TOKEN)' };
    return tokensMatch(presented, policy.token) ? { level: 'detailed', via: 'token' } : { level: 'refused', reason: 'the dashboard token is wrong' };
  }
  if (policy.token !== undefined) return { level: 'public', reason: 'present the dashboard token for payer addresses and transactions' };
  if (policy.network !== 'local') return { level: 'public', reason: 'set TOOLGATE_DASHBOARD_TOKEN to see payer addresses and transactions' };
  const loopback = isLoopbackIp(request.ip) && isLoopbackHost(request.host) && (request.origin === undefined || isLoopbackOrigin(request.origin));
  return loopback
    ? { level: 'detailed', via: 'loopback' }
    : { level: 'public', reason: 'the detailed view is open without a token only to loopback on the local network' };
}
