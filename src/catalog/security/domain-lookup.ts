import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { normalizeDomain } from './domain-lookup/domain-name.ts';
import { checkDomain } from './domain-lookup/domain-report.ts';

const domainField = z
  .string()
  .max(2048)
  .transform((raw, ctx) => {
    const result = normalizeDomain(raw);
    if (result.ok) return result.domain;
    ctx.addIssue({ code: z.ZodIssueCode.custom, message: result.message });
    return z.NEVER;
  })
  .describe('The domain name, or a URL whose host is checked ("example.com", "https://www.example.com/"). Unicode names are accepted.');

export const domainLookupTool = defineTool({
  name: 'check_domain_security',
  title: 'Domain security check',
  description:
    "Returns a domain's DNS records (A, AAAA, MX, NS, CAA, TXT), its SPF policy (mechanisms, the all qualifier, DNS lookups counted against the limit of 10), " +
    'its DMARC policy (p, sp, pct, reporting addresses), DNSSEC status (DS, DNSKEY and the resolver\'s validation), registration from RDAP (registrar, dates, age) ' +
    'and a risk score from 0 to 100 listing every reason that raised it. A name that does not exist is an answer ("exists": false, high risk), not an error. ' +
    'Data from DNS over HTTPS (Cloudflare 1.1.1.1) and the registries\' RDAP services.',
  price: '0.005',
  http: [{ method: 'GET', path: '/api/security/domain-lookup' }],
  input: z.object({ domain: domainField }),
  example: { domain: 'example.com' },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 15_000,
  async handler(input, ctx) {
    return checkDomain(input.domain, ctx);
  },
});
