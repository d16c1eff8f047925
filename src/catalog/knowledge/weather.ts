import { z } from 'zod';
import { text } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const weatherTool = defineTool({
  name: 'get_live_weather',
  title: 'Live weather',
  description: 'Returns current conditions and a 5-day daily forecast for a place.',
  price: '0.002',
  http: [{ method: 'GET', path: '/api/tools/weather' }],
  input: z.object({ location: text('A place name ("Lisbon", "Austin, TX") or "latitude,longitude".', 200) }),
  example: { location: 'Lisbon' },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
