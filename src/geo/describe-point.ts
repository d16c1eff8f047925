// What is known offline about any point on Earth: the country whose land or waters hold it, the
// IANA time zone (a nautical zone at sea) with its offset and local time now, and the nearest
// populated place.
import { countryAt, type Country } from './country.ts';
import { gazetteer, type GazetteerPlace } from './gazetteer.ts';
import { formatUtcOffset, isoInZone, utcOffsetMinutesAt } from '../catalog/utility/zoned-time.ts';
import { timeZoneAt } from './time-zone.ts';

export interface PointDescription {
  country: Country | null;
  timeZone: { id: string; utcOffset: string; localTime: string };
  nearestPlace: (Pick<GazetteerPlace, 'name' | 'countryCode' | 'adminCode' | 'population' | 'latitude' | 'longitude'> & { distanceKm: number; geonamesUrl: string }) | null;
}

export function describePoint(latitude: number, longitude: number, now: Date): PointDescription {
  const zone = timeZoneAt(latitude, longitude);
  const near = gazetteer().nearest(latitude, longitude);
  return {
    country: countryAt(latitude, longitude) ?? null,
    timeZone: { id: zone, utcOffset: formatUtcOffset(utcOffsetMinutesAt(zone, now.getTime())), localTime: isoInZone(zone, now.getTime()) },
    nearestPlace: near
      ? {
          name: near.place.name,
          countryCode: near.place.countryCode,
          adminCode: near.place.adminCode,
          population: near.place.population,
          latitude: near.place.latitude,
          longitude: near.place.longitude,
          distanceKm: Math.round(near.distanceKm * 10) / 10,
          geonamesUrl: `https://www.geonames.org/${near.place.geonameId}`,
        }
      : null,
  };
}

