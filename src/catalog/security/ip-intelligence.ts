import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { describeCaller } from './ip-intelligence/describe-caller.ts';

export const ipIntelligenceTool = defineTool({
  name: 'get_ip_intelligence',
  title: 'IP intelligence about the caller',
  description:
    'Describes the calling client\'s own IP address (it takes no parameters): ASN and organisation, country, region, city and ' +
    'coordinates, whether the address belongs to a hosting/datacenter network, the nearest AWS, Google Cloud and Azure regions, ' +
    'and a 0-100 bot-risk score with its reasons. Answers from offline data (DB-IP Lite, RouteViews, NRO; CC BY 4.0, credited ' +
    'in the attribution field). Private, loopback and other non-public callers get their scope and a note instead of a lookup.',
  price: '0.003',
  http: [{ method: 'GET', path: '/api/security/ip-geo' }],
  // No parameters: any key (an "ip" to look up, say) is refused for free rather than silently
  // ignored, since the answer would be about the caller and not about that address.
  input: z.strictObject(
    {},
    {
      error: (issue) =>
        issue.code === 'unrecognized_keys'
          ? `get_ip_intelligence takes no parameters: it describes the address the call comes from, so it cannot look up ${issue.keys.map((key) => `"${key}"`).join(', ')}`
          : undefined,
    },
  ),
  example: {},
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler(_input, ctx) {
    return describeCaller(ctx.caller, ctx.signal);
  },
});
