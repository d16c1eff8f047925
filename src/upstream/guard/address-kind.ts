// Names for the non-public addresses the guard refuses, as a person reading a refusal would say them.
import ipaddr from 'ipaddr.js';

/** Instance metadata services (AWS, GCP, Azure, ECS tasks, Alibaba, AWS over IPv6): the prize of most SSRF attacks. */
const cloudMetadataAddresses = new Set(['169.254.169.254', '169.254.170.2', '100.100.100.200', 'fd00:ec2::254']);

const documentationBlocks = ['192.0.2.0/24', '198.51.100.0/24', '203.0.113.0/24', '2001:db8::/32', '3fff::/20'].map((cidr) => ipaddr.parseCIDR(cidr));
const benchmarkingIPv4 = ipaddr.parseCIDR('198.18.0.0/15');

const kindOfRange: Readonly<Record<string, string>> = {
  unspecified: 'unspecified address',
  broadcast: 'broadcast address',
  multicast: 'multicast address',
  linkLocal: 'link-local address',
  loopback: 'loopback address',
  carrierGradeNat: 'carrier-grade NAT address',
  private: 'private address',
  uniqueLocal: 'private (unique local) address',
  deprecatedSiteLocal: 'site-local address',
  benchmarking: 'benchmarking address',
  reserved: 'reserved address',
  rfc6052: 'NAT64 local-use address',
  rfc6145: 'IPv4-translated address',
  discard: 'discard-only address',
};

const sameKind = (address: ipaddr.IPv4 | ipaddr.IPv6, [block]: [ipaddr.IPv4 | ipaddr.IPv6, number]) => address.kind() === block.kind();

/** What kind of address this is, e.g. "loopback address"; only meaningful for addresses that are not public unicast. */
export function addressKind(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  const text = address.kind() === 'ipv6' ? (address as ipaddr.IPv6).toRFC5952String() : address.toString();
  if (cloudMetadataAddresses.has(text)) return 'cloud metadata address';
  if (documentationBlocks.some((block) => sameKind(address, block) && address.match(block))) return 'documentation address';
  if (sameKind(address, benchmarkingIPv4) && address.match(benchmarkingIPv4)) return 'benchmarking address';
  return kindOfRange[address.range()] ?? 'special-purpose address';
}

/** "a" or "an" before a kind or form name as written here. */
export function withArticle(words: string): string {
  return `${/^[aeiouI]/.test(words) ? 'an' : 'a'} ${words}`;
}
