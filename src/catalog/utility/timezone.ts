import { z } from 'zod';
import { defineTool } from '../tool.ts';

export const timezoneTool = defineTool({
  name: 'calculate_timezone_and_markets',
  title: 'Time zone and market hours',
  description: 'Returns the local time, UTC offset, abbreviation and DST status of a time zone, and whether the NYSE, LSE, TSE and HKEX are open, with the next open or close.',
  price: '0.002',
  http: [{ method: 'GET', path: '/api/tools/timezone' }],
  input: z.object({
    timezone: z.string().trim().min(1).max(100).default('UTC').describe('An IANA time zone ("Europe/Paris") or a city name ("Paris").'),
  }),
  example: { timezone: 'Asia/Tokyo' },
  annotations: { readOnlyHint: true, openWorldHint: false },
});
