import { z } from 'zod';
import { lookupWayback } from '../../upstream/providers/wayback.ts';
import { httpUrl } from '../fields.ts';
import { defineTool } from '../tool.ts';

/** "2006", "20060101", "20060101123000", or an ISO 8601 date or time ("2006-01-01", "2006-01-01T12:30:00Z"): to the API's digits. */
const timestamp = z
  .string()
  .trim()
  .regex(/^(\d{1,14}|\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2})?Z?)?)$/, {
    message: 'expected 1 to 14 digits of YYYYMMDDhhmmss (e.g. 20060101) or an ISO 8601 date such as 2006-01-01',
  })
  .transform((value) => value.replace(/[-T:Z]/g, ''))
  .optional()
  .describe('Find the snapshot closest to this moment (YYYYMMDDhhmmss digits, or an ISO 8601 date); the most recent when omitted.');

export const waybackTool = defineTool({
  name: 'lookup_wayback_snapshot',
  title: 'Look up an archived snapshot',
  description:
    'Tells whether the Internet Archive\'s Wayback Machine holds a snapshot of a URL and returns the closest snapshot\'s archive URL, capture time (ISO 8601) and recorded HTTP status. ' +
    'A URL that was never archived is an answer ("archived": false), not an error. Data from the Wayback Machine availability API.',
  price: '0.003',
  http: [{ method: 'GET', path: '/api/web/wayback' }],
  input: z.object({
    url: httpUrl('The URL to look up in the archive.'),
    timestamp,
  }),
  example: { url: 'https://example.com/' },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  async handler(input, ctx) {
    const answer = await lookupWayback(ctx.upstream, input.url, ctx.signal, input.timestamp);
    const snapshot = answer.value;
    return {
      url: input.url,
      archived: snapshot.archived,
      ...(snapshot.archived
        ? { snapshot: { archiveUrl: snapshot.archiveUrl, timestamp: snapshot.timestamp, status: snapshot.status } }
        : { message: 'The Wayback Machine holds no accessible snapshot of this URL.' }),
      ...(input.timestamp ? { closestTo: input.timestamp } : {}),
      source: answer.source,
    };
  },
});
