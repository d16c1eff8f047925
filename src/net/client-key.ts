// Whom a per-client limit counts: an IPv4 address, or an IPv6 address's /64. One subscriber is
// routinely handed a whole /64, so counting single IPv6 addresses would let one client be 2^64.
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';

export function clientKey(ip: string): string {
  const bare = ip.includes('%') ? ip.slice(0, ip.indexOf('%')) : ip;
  if (isIP(bare) !== 6) return bare;
  const address = ipaddr.IPv6.parse(bare);
  if (address.isIPv4MappedAddress()) return address.toIPv4Address().toString();
  const prefix = ipaddr.IPv6.networkAddressFromCIDR(`${address.toString()}/64`);
  return `${prefix.toRFC5952String()}/64`;
}
