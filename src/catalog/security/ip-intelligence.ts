import { z } from 'zod';
import { defineTool } from '../tool.ts';

export const ipIntelligenceTool = defineTool({
  name: 'get_ip_intelligence',
  title: 'IP intelligence about the caller',
  description: 'Describes the calling client\'s IP address: ASN and organisation, country, city, datacenter proximity and a bot-risk score.',
  price: '0.003',
  http: [{ method: 'GET', path: '/api/security/ip-geo' }],
  input: z.object({}),
  example: {},
  annotations: { readOnlyHint: true, openWorldHint: false },
});
