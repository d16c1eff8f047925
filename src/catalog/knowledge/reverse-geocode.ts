import { z } from 'zod';
import { describePoint } from '../../geo/describe-point.ts';
import { reverseGeocode } from '../../upstream/providers/nominatim.ts';
import { defineTool } from '../tool.ts';

export const reverseGeocodeTool = defineTool({
  name: 'reverse_geocode',
  title: 'Reverse geocode',
  description:
    'Turns a latitude and longitude into a street address (OpenStreetMap through Nominatim) and, offline, the country, the IANA time zone with its local time, and the nearest populated place with its distance. ' +
    'Open water is an answer: no address, the country whose waters hold the point if any, and the nautical time zone.',
  price: '0.003',
  http: [{ method: 'GET', path: '/api/geo/reverse', rename: { latitude: 'lat', longitude: 'lon' } }],
  input: z.object({
    latitude: z.number().min(-90).max(90).describe('Latitude in decimal degrees, -90 to 90.'),
    longitude: z.number().min(-180).max(180).describe('Longitude in decimal degrees, -180 to 180.'),
  }),
  example: { latitude: 48.8584, longitude: 2.2945 },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  // Nominatim allows one request per second for the whole gateway: a call may wait its turn.
  timeoutMs: 15_000,
  async handler(input, ctx) {
    const offline = describePoint(input.latitude, input.longitude, ctx.now());
    const answer = await reverseGeocode(ctx.upstream, { latitude: input.latitude, longitude: input.longitude }, ctx.signal);
    const found = answer.value;
    return {
      latitude: input.latitude,
      longitude: input.longitude,
      found: found.found,
      ...(found.found
        ? {
            displayName: found.displayName,
            address: found.address,
            place: { name: found.name ?? null, category: found.category, type: found.type, latitude: found.latitude, longitude: found.longitude, osm: found.osm },
          }
        : { displayName: null, address: null, message: `No address here (${found.reason}): open water, or an area without OpenStreetMap data.` }),
      country: offline.country ?? (found.found && found.address.countryCode ? { code: found.address.countryCode, name: found.address.country ?? null } : null),
      timeZone: offline.timeZone,
      nearestPlace: offline.nearestPlace,
      source: answer.source,
      offlineData: 'Country: country-coder (OpenStreetMap borders, ISC); time zone: timezone-boundary-builder via geo-tz (ODbL); nearest place: GeoNames cities1000 (CC BY 4.0).',
    };
  },
});
