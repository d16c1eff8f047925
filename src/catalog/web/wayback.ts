import { z } from 'zod';
import { lookupWayback } from '../../upstream/providers/wayback.ts';
import { httpUrl } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const waybackTool = defineTool({
  name: 'lookup_wayback_snapshot',
  title: 'Look up an archived snapshot',
  description:
    'Tells whether the Internet Archive\'s Wayback Machine holds a snapshot of a URL and returns the most recent snapshot\'s archive URL, capture time (ISO 8601) and recorded HTTP status. ' +
    'A URL that was never archived is an answer ("archived": false), not an error. Data from the Wayback Machine availability API.',
  price: '0.003',
  http: [{ method: 'GET', path: '/api/web/wayback' }],
  input: z.object({ url: httpUrl('The URL to look up in the archive.') }),
  example: { url: 'https://example.com/' },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  async handler(input, ctx) {
    const answer = await lookupWayback(ctx.upstream, input.url, ctx.signal);
    const snapshot = answer.value;
    return {
      url: input.url,
      archived: snapshot.archived,
      ...(snapshot.archived
        ? { snapshot: { archiveUrl: snapshot.archiveUrl, timestamp: snapshot.timestamp, status: snapshot.status } }
        : { message: 'The Wayback Machine holds no accessible snapshot of this URL.' }),
      source: answer.source,
    };
  },
});
