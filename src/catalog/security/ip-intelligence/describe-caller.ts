// Puts the pieces together: classify the caller's address, look a public one up in the offline
// data (loaded once per process), and derive hosting, nearest cloud region and bot risk.
import type { IPv6 } from 'ipaddr.js';
import { ToolError, type ToolContext } from '../../tool.ts';
import { classifyAddress, scopeNote, type AddressScope, type Transition } from '../../../net/address-scope.ts';
import { asnTables } from './asn-database.ts';
import { addressToBigInt, type AsnTable, type AutonomousSystem } from './asn-ranges.ts';
import { assessBotRisk, type BotRisk, type NetworkSignal } from './bot-risk.ts';
import { nearestCloudRegions, type RegionDistance } from './cloud-regions.ts';
import { ATTRIBUTION, dataVersion, type Attribution, type DataVersion } from './data-sources.ts';
import { geoDatabases, type GeoDatabase, type GeoPlace } from './geo-database.ts';
import { knownHostingNetwork, organizationLooksLikeHosting, type HostingKind } from './hosting-networks.ts';
import { untilAborted } from '../../../until-aborted.ts';

const MAX_ECHOED_USER_AGENT = 512;

export interface Hosting {
  isDatacenter: boolean;
  /** How isDatacenter was decided: the curated ASN table, or hosting words in the organisation name. */
  basis: 'known-hosting-asn' | 'organization-name' | null;
  provider: string | null;
  kind: HostingKind | null;
  nearestCloudRegion: RegionDistance | null;
  /** The nearest region of each of AWS, Google Cloud and Azure, nearest first. */
  nearestCloudRegions: RegionDistance[];
}

export interface IpIntelligence {
  ip: string;
  version: 4 | 6;
  scope: AddressScope;
  receivedAs?: string;
  transition?: Transition;
  embeddedIPv4?: string;
  asn: AutonomousSystem | null;
  country: { code: string; name: string } | null;
  region: string | null;
  city: string | null;
  location: { latitude: number; longitude: number } | null;
  hosting: Hosting | null;
  botRisk: BotRisk;
  userAgent: string | null;
  note: string | null;
  attribution: readonly Attribution[];
  dataVersion: DataVersion;
}

const regionNames = new Intl.DisplayNames(['en'], { type: 'region', fallback: 'none' });

function hostingOf(asn: AutonomousSystem | null, place: GeoPlace | null): { hosting: Hosting; network: NetworkSignal } {
  const known = asn ? knownHostingNetwork(asn.number) : null;
  const nameHint = !known && asn !== null && organizationLooksLikeHosting(asn.organization);
  const regions = place?.latitude != null && place.longitude != null ? nearestCloudRegions(place.latitude, place.longitude) : [];
  const hosting: Hosting = {
    isDatacenter: known !== null || nameHint,
    basis: known ? 'known-hosting-asn' : nameHint ? 'organization-name' : null,
    provider: known?.provider ?? null,
    kind: known?.kind ?? (nameHint ? 'hosting' : null),
    nearestCloudRegion: regions[0] ?? null,
    nearestCloudRegions: regions,
  };
  const network: NetworkSignal = known
    ? { kind: 'known-hosting', provider: known.provider, hostingKind: known.kind }
    : nameHint
      ? { kind: 'hosting-like-name', organization: asn.organization }
      : asn === null
        ? { kind: 'no-asn' }
        : { kind: 'ordinary' };
  return { hosting, network };
}

export async function describeCaller(caller: ToolContext['caller'], signal: AbortSignal): Promise<IpIntelligence> {
  const classified = classifyAddress(caller.ip);
  if (!classified) {
    // The gateway always knows the socket address; this is the net under a broken transport.
    throw new ToolError(500, 'caller_address_unknown', `The gateway could not read the caller's address ("${caller.ip.slice(0, 64)}"). Nothing was charged.`);
  }
  const userAgent = caller.userAgent?.trim() ? caller.userAgent.trim().slice(0, MAX_ECHOED_USER_AGENT) : null;
  const common = {
    ip: classified.ip,
    version: classified.version,
    scope: classified.scope,
    ...(classified.receivedAs ? { receivedAs: classified.receivedAs } : {}),
    ...(classified.embeddedIPv4 ? { transition: classified.transition, embeddedIPv4: classified.embeddedIPv4 } : {}),
  };

  if (classified.scope !== 'public') {
    return {
      ...common,
      asn: null,
      country: null,
      region: null,
      city: null,
      location: null,
      hosting: null,
      botRisk: assessBotRisk(null, caller.userAgent),
      userAgent,
      note: `${scopeNote(classified)} The bot-risk score uses the user agent only.`,
      attribution: ATTRIBUTION,
      dataVersion: dataVersion(),
    };
  }

  const lookup = classified.lookup;
  const family = lookup.kind() === 'ipv4' ? 4 : 6;
  let geo: GeoDatabase;
  let asns: AsnTable;
  try {
    [geo, asns] = await untilAborted(Promise.all([geoDatabases[family].get(), asnTables[family].get()]), signal);
  } catch (error) {
    if (signal.aborted) throw error;
    throw new ToolError(503, 'ip_data_unavailable', `The offline IP databases could not be loaded: ${(error as Error).message}. Nothing was charged.`);
  }
  const place = geo.lookup(lookup.kind() === 'ipv4' ? lookup.toString() : (lookup as IPv6).toRFC5952String());
  const asn = asns.lookup(addressToBigInt(lookup.toByteArray()));
  const { hosting, network } = hostingOf(asn, place);
  const countryCode = place?.countryCode ?? null;
  return {
    ...common,
    asn,
    country: countryCode ? { code: countryCode, name: regionNames.of(countryCode) ?? countryCode } : null,
    region: place?.region ?? null,
    city: place?.city ?? null,
    location: place?.latitude != null && place.longitude != null ? { latitude: place.latitude, longitude: place.longitude } : null,
    hosting,
    botRisk: assessBotRisk(network, caller.userAgent),
    userAgent,
    note: classified.embeddedIPv4
      ? `${classified.ip} is a ${classified.transition} address: the IPv4 address it carries, ${classified.embeddedIPv4}, was looked up.`
      : null,
    attribution: ATTRIBUTION,
    dataVersion: dataVersion(),
  };
}

/**
 * Loads all the offline data now instead of on the first public caller of each family (about 1-2 s
 * and ~200 MiB). Not called by the tool itself; a server that prefers a slower start can call it.
 */
export async function preloadIpData(): Promise<void> {
  await Promise.all([geoDatabases[4].get(), geoDatabases[6].get(), asnTables[4].get(), asnTables[6].get()]);
}
