// What kind of address a caller has: public (worth looking up) or one of the special-purpose
// ranges of the IANA registries (RFC 6890), which no database can place on a map.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export type AddressScope =
  | 'public'
  | 'private'
  | 'loopback'
  | 'link-local'
  | 'carrier-grade-nat'
  | 'multicast'
  | 'unspecified'
  | 'reserved';

export type Transition = '6to4' | 'teredo' | 'nat64';

export interface ClassifiedAddress {
  /** Canonical text: dotted quad for IPv4 (IPv4-mapped IPv6 included), RFC 5952 for IPv6. */
  ip: string;
  version: 4 | 6;
  /** The scope of the address the lookups use (for a tunnelled address, the IPv4 inside it). */
  scope: AddressScope;
  /** The ipaddr.js range name of the address as received, e.g. "unicast", "private", "uniqueLocal", "6to4". */
  range: string;
  /** For IPv4-mapped IPv6 addresses (::ffff:a.b.c.d): the address as it was received. */
  receivedAs?: string;
  /** For IPv6 addresses that carry an IPv4 one (6to4, Teredo client, well-known NAT64 prefix). */
  transition?: Transition;
  embeddedIPv4?: string;
  /** The address the databases are asked about: the IPv4 inside a tunnelled address, else the address. */
  lookup: ipaddr.IPv4 | ipaddr.IPv6;
}

const scopeOfRange: Readonly<Record<string, AddressScope>> = {
  unicast: 'public',
  private: 'private',
  uniqueLocal: 'private',
  loopback: 'loopback',
  linkLocal: 'link-local',
  carrierGradeNat: 'carrier-grade-nat',
  multicast: 'multicast',
  unspecified: 'unspecified',
};

const ipv4FromWords = (high: number, low: number) => new ipaddr.IPv4([high >> 8, high & 0xff, low >> 8, low & 0xff]);

/** The IPv4 address an IPv6 transition address carries (RFC 3056, RFC 4380, RFC 6052), if any. */
function embeddedIPv4(address: ipaddr.IPv6, range: string): { transition: Transition; ipv4: ipaddr.IPv4 } | null {
  const parts = address.parts;
  if (range === '6to4') return { transition: '6to4', ipv4: ipv4FromWords(parts[1]!, parts[2]!) };
  // A Teredo address holds its client's public IPv4 address with every bit inverted.
  if (range === 'teredo') return { transition: 'teredo', ipv4: ipv4FromWords(~parts[6]! & 0xffff, ~parts[7]! & 0xffff) };
  // Only the well-known prefix 64:ff9b::/96; the local-use 64:ff9b:1::/48 may embed at other offsets.
  const wellKnownNat64 = parts[0] === 0x64 && parts[1] === 0xff9b && parts.slice(2, 6).every((part) => part === 0);
  if (range === 'rfc6052' && wellKnownNat64) return { transition: 'nat64', ipv4: ipv4FromWords(parts[6]!, parts[7]!) };
  return null;
}

/** Parses a caller address; null when it is not an IPv4 or IPv6 address (an IPv6 zone suffix is allowed). */
export function classifyAddress(raw: string): ClassifiedAddress | null {
  const text = raw.trim();
  const withoutZone = text.includes('%') ? text.slice(0, text.indexOf('%')) : text;
  // node:net accepts only canonical forms; ipaddr.js alone would also take "127.1" or "0x7f.0.0.1".
  if (isIP(withoutZone) === 0) return null;
  const parsed = ipaddr.parse(withoutZone);
  if (parsed.kind() === 'ipv4' || (parsed as ipaddr.IPv6).isIPv4MappedAddress()) {
    const address = parsed.kind() === 'ipv4' ? (parsed as ipaddr.IPv4) : (parsed as ipaddr.IPv6).toIPv4Address();
    const range = address.range();
    return {
      ip: address.toString(),
      version: 4,
      scope: scopeOfRange[range] ?? 'reserved',
      range,
      ...(parsed.kind() === 'ipv6' ? { receivedAs: text } : {}),
      lookup: address,
    };
  }
  const address = parsed as ipaddr.IPv6;
  const range = address.range();
  const embedded = embeddedIPv4(address, range);
  const base = { ip: address.toRFC5952String(), version: 6 as const, range };
  if (!embedded) return { ...base, scope: scopeOfRange[range] ?? 'reserved', lookup: address };
  return {
    ...base,
    scope: scopeOfRange[embedded.ipv4.range()] ?? 'reserved',
    transition: embedded.transition,
    embeddedIPv4: embedded.ipv4.toString(),
    lookup: embedded.ipv4,
  };
}

/** The IPv4 address inside a deprecated IPv4-compatible IPv6 address (::a.b.c.d, RFC 4291 section 2.5.5.1), if it is one. */
export function ipv4CompatibleIPv4(address: ipaddr.IPv6): ipaddr.IPv4 | null {
  const [a, b, c, d, e, f, high, low] = address.parts;
  if ([a, b, c, d, e, f].some((part) => part !== 0)) return null;
  // :: and ::1 are the unspecified and loopback addresses, not IPv4-compatible ones.
  if (high === 0 && (low === 0 || low === 1)) return null;
  return ipv4FromWords(high!, low!);
}

const globalUnicastBlock = ipaddr.IPv6.parseCIDR('2000::/3');

/**
 * Whether an IPv6 address lies in 2000::/3, the only block IANA allocates global unicast addresses
 * from; ipaddr.js calls every address outside its special ranges "unicast", including unassigned space.
 */
export function inGlobalUnicastBlock(address: ipaddr.IPv6): boolean {
  return address.match(globalUnicastBlock);
}

const explanations: Readonly<Record<Exclude<AddressScope, 'public'>, string>> = {
  private:
    'a private address (RFC 1918 for IPv4, unique local RFC 4193 for IPv6): the call came from a local network, ' +
    'or through a proxy the gateway is not configured to trust (TOOLGATE_TRUSTED_PROXIES)',
  loopback: 'a loopback address: the call came from the machine the gateway runs on (or through an untrusted local proxy)',
  'link-local': 'a link-local address (RFC 3927 / RFC 4291): the caller is on the same network segment as the gateway',
  'carrier-grade-nat':
    'a shared address (RFC 6598, 100.64.0.0/10) used inside carrier-grade NAT: the public address is the carrier\'s and is not visible here',
  multicast: 'a multicast address, which cannot be the source of a call',
  unspecified: 'the unspecified address, which cannot be the source of a call',
  reserved: 'a special-purpose address (documentation, benchmarking or reserved range in the IANA registries) that is not routed on the internet',
};

/** One sentence telling a non-public caller why nothing was looked up. */
export function scopeNote(classified: ClassifiedAddress): string {
  if (classified.scope === 'public') return '';
  const subject = classified.embeddedIPv4 ? `${classified.ip} carries ${classified.embeddedIPv4} (${classified.transition}), which` : classified.ip;
  return `${subject} is ${explanations[classified.scope]}. Addresses like this are not in any geolocation or ASN database, so nothing was looked up.`;
}
