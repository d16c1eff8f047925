// What is known offline about any point on Earth: the country whose land or waters hold it, the
// IANA time zone (a nautical zone at sea) with its offset and local time now, and the nearest
// populated place.
import { countryAt, type Country } from './country.ts';
import { gazetteer, type GazetteerPlace } from './gazetteer.ts';
import { timeZoneAt, utcOffsetOf } from './time-zone.ts';

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
    timeZone: { id: zone, utcOffset: utcOffsetOf(zone, now), localTime: localTimeIn(zone, now) },
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

/** The wall-clock time in the zone, ISO 8601 with its offset: "2026-11-23T22:15:00+01:00". */
export function localTimeIn(timeZone: string, at: Date): string {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-CA', { timeZone, hourCycle: 'h23', year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit' })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}${utcOffsetOf(timeZone, at)}`;
}
