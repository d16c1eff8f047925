// Autonomous systems operated by cloud, hosting and CDN companies: an address announced by one of
// them is a server (or a proxy/VPN egress running on one), not a home or office connection.
//
// Source: each number is the operator's own ASN as registered in the RIR WHOIS and in PeeringDB
// (peeringdb.com/asn/<number>); the organisation names were cross-checked against the ASN data this
// tool ships (@ip-location-db/asn), and hosting-networks.test.ts keeps checking them. Reviewed 2026-11.
// Not listed on purpose: the providers' consumer ISPs (Google Fiber AS16591, Starlink AS14593).

export type HostingKind = 'cloud' | 'hosting' | 'cdn';

export interface HostingNetwork {
  provider: string;
  kind: HostingKind;
  asns: readonly number[];
}

export const HOSTING_NETWORKS: readonly HostingNetwork[] = [
  { provider: 'Amazon Web Services', kind: 'cloud', asns: [16509, 14618, 8987, 38895, 7224] },
  // Google's ASNs carry Google Cloud and Google's own services (including YouTube's 36040 and 43515).
  { provider: 'Google', kind: 'cloud', asns: [15169, 396982, 19527, 36492, 36040, 43515, 139070] },
  { provider: 'Microsoft (Azure)', kind: 'cloud', asns: [8075, 8068, 8069, 3598, 12076] },
  { provider: 'Oracle Cloud', kind: 'cloud', asns: [31898] },
  { provider: 'IBM Cloud', kind: 'cloud', asns: [36351] },
  { provider: 'Alibaba Cloud', kind: 'cloud', asns: [45102, 37963, 134963] },
  { provider: 'Tencent Cloud', kind: 'cloud', asns: [132203, 45090] },
  { provider: 'Huawei Cloud', kind: 'cloud', asns: [136907, 55990] },
  { provider: 'DigitalOcean', kind: 'cloud', asns: [14061] },
  { provider: 'Akamai Connected Cloud (Linode)', kind: 'cloud', asns: [63949] },
  { provider: 'Vultr', kind: 'cloud', asns: [20473] },
  { provider: 'Fly.io', kind: 'cloud', asns: [40509] },
  { provider: 'Railway', kind: 'cloud', asns: [400940] },
  { provider: 'Hetzner', kind: 'hosting', asns: [24940, 213230, 212317, 215859] },
  { provider: 'OVHcloud', kind: 'hosting', asns: [16276, 35540] },
  { provider: 'Scaleway', kind: 'hosting', asns: [12876] },
  { provider: 'Contabo', kind: 'hosting', asns: [51167] },
  { provider: 'Leaseweb', kind: 'hosting', asns: [60781, 16265] },
  { provider: 'IONOS', kind: 'hosting', asns: [8560] },
  { provider: 'netcup', kind: 'hosting', asns: [197540] },
  { provider: 'UpCloud', kind: 'hosting', asns: [202053] },
  { provider: 'Hostinger', kind: 'hosting', asns: [47583] },
  { provider: 'G-Core Labs', kind: 'hosting', asns: [199524] },
  { provider: 'M247', kind: 'hosting', asns: [9009] },
  { provider: 'Datacamp (CDN77)', kind: 'hosting', asns: [212238] },
  { provider: 'Zenlayer', kind: 'hosting', asns: [21859] },
  { provider: 'Psychz Networks', kind: 'hosting', asns: [40676] },
  { provider: 'QuadraNet', kind: 'hosting', asns: [8100] },
  { provider: 'ColoCrossing (HostPapa)', kind: 'hosting', asns: [36352] },
  { provider: 'FranTech (BuyVM)', kind: 'hosting', asns: [53667] },
  { provider: 'Hivelocity', kind: 'hosting', asns: [29802] },
  { provider: 'Latitude.sh', kind: 'hosting', asns: [396356] },
  // CDN and edge networks: their addresses also front consumer relays (Cloudflare WARP, iCloud Private Relay).
  { provider: 'Cloudflare', kind: 'cdn', asns: [13335, 209242, 132892] },
  { provider: 'Akamai', kind: 'cdn', asns: [20940, 16625] },
  { provider: 'Fastly', kind: 'cdn', asns: [54113] },
];

const byAsn = new Map<number, HostingNetwork>(HOSTING_NETWORKS.flatMap((network) => network.asns.map((asn) => [asn, network] as const)));

export function knownHostingNetwork(asn: number): HostingNetwork | null {
  return byAsn.get(asn) ?? null;
}

// Words that, in an AS organisation name, almost always mean a hosting or datacenter business.
const hostingWords = /\b(hosting|hoster|datacenters?|data[ -]?cent(?:er|re)s?|dedicated servers?|vps|colocation|servers?|cloud)\b/i;

/** A weaker signal for the long tail of small hosters the table does not list. */
export function organizationLooksLikeHosting(organization: string): boolean {
  return hostingWords.test(organization);
}
