// Where a weather call asks about: coordinates as given, a name from the offline gazetteer, or,
// for a name it does not hold, the first match of Nominatim's search.
import { countryByCode } from '../../../geo/country.ts';
import { gazetteer, type GazetteerPlace } from '../../../geo/gazetteer.ts';
import type { LocationText } from '../../../geo/location-text.ts';
import { resolvePlaceName } from '../../../geo/resolve-place.ts';
import { timeZoneAt } from '../../../geo/time-zone.ts';
import type { SourceNote } from '../../../upstream/provider.ts';
import type { ProviderCaller } from '../../../upstream/provider-call.ts';
import { searchPlace } from '../../../upstream/providers/nominatim.ts';
import { ToolError } from '../../tool.ts';

export interface WeatherLocation {
  name: string;
  country: { code: string; name: string } | null;
  latitude: number;
  longitude: number;
  timeZone: string;
  /** How the text was read. */
  resolvedBy: 'coordinates' | 'gazetteer' | 'nominatim';
  ambiguous: boolean;
  /** Other places the name fits, most likely first (absent when only one did). */
  alternatives?: { name: string; country: string; region?: string; population?: number; latitude: number; longitude: number }[];
  /** For coordinates: the nearest populated place, when one is within 25 km. */
  nearestPlace?: { name: string; distanceKm: number };
}

const NEAREST_PLACE_KM = 25;

export async function resolveWeatherLocation(
  text: LocationText,
  original: string,
  caller: ProviderCaller,
  signal: AbortSignal,
): Promise<{ location: WeatherLocation; source?: SourceNote }> {
  if (text.kind === 'coordinates') {
    const near = gazetteer().nearest(text.latitude, text.longitude);
    const close = near && near.distanceKm <= NEAREST_PLACE_KM ? near : undefined;
    return {
      location: {
        name: close ? close.place.name : `${text.latitude}, ${text.longitude}`,
        country: close ? countryOf(close.place.countryCode) : null,
        latitude: text.latitude,
        longitude: text.longitude,
        timeZone: timeZoneAt(text.latitude, text.longitude),
        resolvedBy: 'coordinates',
        ambiguous: false,
        ...(close ? { nearestPlace: { name: close.place.name, distanceKm: Math.round(close.distanceKm * 10) / 10 } } : {}),
      },
    };
  }
  const offline = resolvePlaceName(gazetteer(), text.name, text.qualifiers);
  if (offline) {
    const { place, alternatives, matches } = offline;
    return {
      location: {
        name: place.name,
        country: countryOf(place.countryCode),
        latitude: place.latitude,
        longitude: place.longitude,
        timeZone: timeZoneAt(place.latitude, place.longitude),
        resolvedBy: 'gazetteer',
        ambiguous: matches > 1,
        ...(alternatives.length > 0 ? { alternatives: alternatives.map(alternativeOf) } : {}),
      },
    };
  }
  const online = await searchPlace(caller, original, signal, 5);
  const [first, ...others] = online.value;
  if (!first) {
    throw new ToolError(404, 'location_not_found', `location: no place named "${original}" was found (offline gazetteer and OpenStreetMap). Try "City, Country" or "latitude,longitude".`, { field: 'location' });
  }
  return {
    location: {
      name: first.name || first.displayName,
      country: first.countryCode ? countryOf(first.countryCode) : null,
      latitude: first.latitude,
      longitude: first.longitude,
      timeZone: timeZoneAt(first.latitude, first.longitude),
      resolvedBy: 'nominatim',
      ambiguous: others.length > 0,
      ...(others.length > 0 ? { alternatives: others.map((o) => ({ name: o.displayName, country: o.countryCode ?? '', latitude: o.latitude, longitude: o.longitude })) } : {}),
    },
    source: online.source,
  };
}

function countryOf(code: string): { code: string; name: string } {
  const country = countryByCode(code);
  return { code: code.toUpperCase(), name: country?.name ?? code.toUpperCase() };
}

function alternativeOf(place: GazetteerPlace) {
  return { name: place.name, country: place.countryCode, region: place.adminCode, population: place.population, latitude: place.latitude, longitude: place.longitude };
}
