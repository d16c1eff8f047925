import { z } from 'zod';
import { defineTool } from '../tool.ts';

export const reverseGeocodeTool = defineTool({
  name: 'reverse_geocode',
  title: 'Reverse geocode',
  description: 'Turns a latitude and longitude into a street address and location details (city, region, country, time zone).',
  price: '0.003',
  http: [{ method: 'GET', path: '/api/geo/reverse', rename: { latitude: 'lat', longitude: 'lon' } }],
  input: z.object({
    latitude: z.number().min(-90).max(90).describe('Latitude in decimal degrees, -90 to 90.'),
    longitude: z.number().min(-180).max(180).describe('Longitude in decimal degrees, -180 to 180.'),
  }),
  example: { latitude: 48.8584, longitude: 2.2945 },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
