import { z } from 'zod';
import { defineTool } from '../tool.ts';

const hostname = /^(?=.{1,253}$)(?!-)[A-Za-z0-9-]{1,63}(?<!-)(\.(?!-)[A-Za-z0-9-]{1,63}(?<!-))+$/;

export const domainLookupTool = defineTool({
  name: 'check_domain_security',
  title: 'Domain security check',
  description: 'Returns a domain\'s DNS records, SPF/DMARC policy, DNSSEC status and a risk score.',
  price: '0.005',
  http: [{ method: 'GET', path: '/api/security/domain-lookup' }],
  input: z.object({
    domain: z.string().trim().toLowerCase().regex(hostname, { message: 'expected a domain name such as "example.com" (no scheme, no path)' })
      .describe('The domain name, without scheme or path.'),
  }),
  example: { domain: 'example.com' },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
