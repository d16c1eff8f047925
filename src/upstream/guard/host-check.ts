// The DNS half of the guard: resolve the host of an approved URL once, refuse it if ANY of its
// addresses is forbidden (a name may mix public and private answers), and pick the one address the
// connection is pinned to, so a second, different DNS answer (rebinding) never gets used.
import { isIP } from 'node:net';
import { classifyAddress } from '../../net/address-scope.ts';
import { RawFetchError, type ResolvedAddress } from '../http/http-types.ts';
import { describeForbidden, parseAllowList, whyForbidden } from './address-policy.ts';
import { withinDeadline } from './deadline.ts';
import type { GuardPolicy } from './guard-types.ts';

export type HostVerdict =
  | { ok: true; pinned: ResolvedAddress }
  | { ok: false; reason: 'unresolvable' | 'forbidden_address'; message: string };

export interface HostCheckOptions {
  policy: GuardPolicy;
  deadline: number;
  signal?: AbortSignal;
}

/** Checks the host of a URL that already passed checkCallerUrl (so an IP-literal host is known to be allowed). */
export async function checkHost(url: URL, options: HostCheckOptions): Promise<HostVerdict> {
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literalFamily = isIP(host);
  if (literalFamily !== 0) return { ok: true, pinned: { address: host, family: literalFamily === 6 ? 6 : 4 } };

  let addresses: ResolvedAddress[];
  try {
    addresses = await withinDeadline(options.policy.resolve(host), options.deadline, options.signal, `${url.origin}${url.pathname}`);
  } catch (error) {
    // Running out of time or being aborted while waiting is the fetch's failure, not the host's.
    if (error instanceof RawFetchError) throw error;
    return unresolvable(host, codeOf(error));
  }
  if (addresses.length === 0) return unresolvable(host, 'no addresses');

  const allow = parseAllowList(options.policy.allow);
  for (const { address } of addresses) {
    const verdict = whyForbidden(address, allow);
    if (verdict) {
      return {
        ok: false,
        reason: 'forbidden_address',
        message: `url: ${host} resolves to ${verdict.address}, ${describeForbidden(verdict)}; only public internet addresses can be fetched`,
      };
    }
  }
  return { ok: true, pinned: pinnable(addresses) };
}

/** The first IPv4 address (most hosts still answer best over IPv4), else the first; IPv4-mapped forms unmapped. */
function pinnable(addresses: readonly ResolvedAddress[]): ResolvedAddress {
  const canonical = addresses.map(({ address }): ResolvedAddress => {
    const classified = classifyAddress(address)!;
    return { address: classified.ip, family: classified.version };
  });
  return canonical.find((address) => address.family === 4) ?? canonical[0]!;
}

function unresolvable(host: string, cause: string): HostVerdict {
  return { ok: false, reason: 'unresolvable', message: `url: the host ${host} could not be resolved (${cause}); check the address` };
}

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string') return code;
  return error instanceof Error ? error.message : String(error);
}
