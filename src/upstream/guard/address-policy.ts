// Which addresses a caller's URL may reach: public unicast addresses only, plus exactly what the
// operator's allow list (TOOLGATE_SSRF_ALLOW) names. IPv6 forms that carry an IPv4 address
// (IPv4-mapped, NAT64, 6to4, Teredo, IPv4-compatible) are judged by the IPv4 address they carry.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { classifyAddress, inGlobalUnicastBlock, ipv4CompatibleIPv4, type Transition } from '../../net/address-scope.ts';
import { addressKind, withArticle } from './address-kind.ts';

export interface AllowedBlock {
  /** The entry as the operator wrote it. */
  entry: string;
  block: [ipaddr.IPv4 | ipaddr.IPv6, number];
}

export type AllowList = readonly AllowedBlock[];

/** A refused address and what it is. */
export interface ForbiddenAddress {
  /** The address as checked, in canonical text. */
  address: string;
  /** e.g. "loopback address", "cloud metadata address". */
  kind: string;
  /** Set when `address` is an IPv6 form carrying an IPv4 address; `kind` is then the IPv4 address's. */
  carried?: { form: string; ipv4: string };
}

/** Parses TOOLGATE_SSRF_ALLOW entries: IPv4 or IPv6 addresses (one address each) or CIDR blocks. */
export function parseAllowList(entries: readonly string[]): AllowList {
  return entries.map((entry) => {
    const [address = '', bits, ...extra] = entry.trim().split('/');
    const version = isIP(address);
    const maxBits = version === 4 ? 32 : 128;
    const prefix = bits === undefined ? maxBits : /^\d{1,3}$/.test(bits) ? Number(bits) : Number.NaN;
    if (version === 0 || extra.length > 0 || !(prefix >= 0 && prefix <= maxBits)) {
      throw new Error(`SSRF allow list: "${entry}" is not an IP address or CIDR block (write e.g. 127.0.0.1/32 or fd00::/8)`);
    }
    return { entry, block: unmapped(ipaddr.parse(address), prefix) };
  });
}

/** Addresses are checked after unmapping, so an IPv4-mapped entry is kept as the IPv4 block it names. */
function unmapped(address: ipaddr.IPv4 | ipaddr.IPv6, prefix: number): [ipaddr.IPv4 | ipaddr.IPv6, number] {
  if (address.kind() === 'ipv6' && (address as ipaddr.IPv6).isIPv4MappedAddress() && prefix >= 96) {
    return [(address as ipaddr.IPv6).toIPv4Address(), prefix - 96];
  }
  return [address, prefix];
}

function isAllowed(canonical: string, allow: AllowList): boolean {
  const address = ipaddr.parse(canonical);
  return allow.some(({ block }) => block[0].kind() === address.kind() && address.match(block));
}

const transitionForms: Readonly<Record<Transition, string>> = { '6to4': '6to4', teredo: 'Teredo', nat64: 'NAT64' };

/** Why the guard refuses to connect to `ip`, or null when it may (public unicast, or allowed). */
export function whyForbidden(ip: string, allow: AllowList = []): ForbiddenAddress | null {
  const classified = classifyAddress(ip);
  if (!classified) return { address: ip, kind: 'malformed address' };
  if (isAllowed(classified.ip, allow)) return null;
  if (classified.version === 4) {
    if (classified.scope === 'public') return null;
    const kind = addressKind(classified.lookup);
    if (classified.receivedAs === undefined) return { address: classified.ip, kind };
    const mappedText = (ipaddr.parse(classified.receivedAs.split('%')[0]!) as ipaddr.IPv6).toRFC5952String();
    return { address: mappedText, kind, carried: { form: 'IPv4-mapped', ipv4: classified.ip } };
  }
  if (classified.transition && classified.embeddedIPv4) {
    if (classified.scope === 'public') return null;
    return { address: classified.ip, kind: addressKind(classified.lookup), carried: { form: transitionForms[classified.transition], ipv4: classified.embeddedIPv4 } };
  }
  if (classified.scope !== 'public') return { address: classified.ip, kind: addressKind(classified.lookup) };
  const ipv6 = classified.lookup as ipaddr.IPv6;
  if (inGlobalUnicastBlock(ipv6)) return null;
  const compatible = ipv4CompatibleIPv4(ipv6);
  if (compatible && compatible.range() !== 'unicast') {
    return { address: classified.ip, kind: addressKind(compatible), carried: { form: 'IPv4-compatible', ipv4: compatible.toString() } };
  }
  return { address: classified.ip, kind: compatible ? 'deprecated IPv4-compatible address' : 'unassigned address (outside 2000::/3)' };
}

/** A short reason why `ip` is refused, e.g. "loopback address 127.0.0.1"; null for public unicast or allowed addresses. */
export function forbiddenAddress(ip: string, allow: AllowList = []): string | null {
  const verdict = whyForbidden(ip, allow);
  if (!verdict) return null;
  if (!verdict.carried) return `${verdict.kind} ${verdict.address}`;
  return `${verdict.kind} ${verdict.carried.ipv4} inside ${verdict.carried.form} address ${verdict.address}`;
}

/** The verdict as a phrase: "a loopback address", "an IPv4-mapped form of 127.0.0.1, a loopback address". */
export function describeForbidden(verdict: ForbiddenAddress): string {
  if (!verdict.carried) return withArticle(verdict.kind);
  return `${withArticle(verdict.carried.form)} form of ${verdict.carried.ipv4}, ${withArticle(verdict.kind)}`;
}
