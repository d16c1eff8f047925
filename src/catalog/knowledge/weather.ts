import { z } from 'zod';
import { parseLocationText } from '../../geo/location-text.ts';
import { text } from '../fields.ts';
import { defineTool } from '../tool.ts';
import { forecastAt } from './weather/forecast-at.ts';
import { resolveWeatherLocation } from './weather/resolve-location.ts';

export const weatherTool = defineTool({
  name: 'get_live_weather',
  title: 'Live weather',
  description:
    'Returns current conditions (temperature, feels-like, wind, humidity, pressure, cloud cover, precipitation, the condition in words) and a 5-day daily forecast by the place\'s local date, with units and the time zone. ' +
    'Place names resolve offline from GeoNames (population breaks ties; "Paris, TX" or "Zürich, CH" narrow them; alternatives are listed), else through OpenStreetMap Nominatim. Forecast data from MET Norway (CC BY 4.0).',
  price: '0.002',
  http: [{ method: 'GET', path: '/api/tools/weather' }],
  input: z.object({
    location: text('A place name ("Oslo", "Paris, TX", "Zürich, CH") or "latitude,longitude" in decimal degrees.', 200).superRefine((value, ctx) => {
      const parsed = parseLocationText(value);
      if ('problem' in parsed) ctx.addIssue({ code: 'custom', message: parsed.problem });
    }),
  }),
  example: { location: 'Oslo' },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  // A name the gazetteer lacks waits its turn at Nominatim (one request per second).
  timeoutMs: 15_000,
  async handler(input, ctx) {
    const parsed = parseLocationText(input.location);
    if ('problem' in parsed) throw new Error(`location passed validation but cannot be read: ${parsed.problem}`);
    const { location, source: placeSource } = await resolveWeatherLocation(parsed, input.location, ctx.upstream, ctx.signal);
    const { forecast, source } = await forecastAt(ctx.upstream, location, ctx.now(), ctx.signal);
    return {
      location,
      ...forecast,
      sources: placeSource ? [placeSource, source] : [source],
    };
  },
});
