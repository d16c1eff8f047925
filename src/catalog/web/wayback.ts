import { z } from 'zod';
import { httpUrl } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const waybackTool = defineTool({
  name: 'lookup_wayback_snapshot',
  title: 'Look up an archived snapshot',
  description: 'Tells whether the Internet Archive\'s Wayback Machine holds a snapshot of a URL and returns the closest snapshot\'s archive URL and timestamp.',
  price: '0.003',
  http: [{ method: 'GET', path: '/api/web/wayback' }],
  input: z.object({ url: httpUrl('The URL to look up in the archive.') }),
  example: { url: 'https://example.com/' },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
