// The whole check over captured answers: Cloudflare's DoH answers for unde-pescuim.ro (2026-08-25),
// its NXDOMAIN for unknown.example, and Verisign's RDAP record of example.com. Known answers were
// worked out by hand from those files (see the comments).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RawResponse } from '../../../upstream/http/http-types.ts';
import type { ProviderAnswer, ProviderCaller, ProviderRequest, ResponseParser } from '../../../upstream/provider-call.ts';
import type { ProviderDefinition } from '../../../upstream/provider.ts';
import { fixtureResponse } from '../../../upstream/providers/recording-caller.ts';
import { UpstreamError } from '../../../upstream/upstream-errors.ts';
import { ToolError } from '../../tool.ts';
import { domainLookupTool } from '../domain-lookup.ts';
import { checkDomain } from './domain-report.ts';

const UNDE_PESCUIM: Readonly<Record<string, string>> = {
  'unde-pescuim.ro A': 'unde-pescuim-ro-a.json',
  'unde-pescuim.ro AAAA': 'unde-pescuim-ro-aaaa.json',
  'unde-pescuim.ro MX': 'unde-pescuim-ro-mx.json',
  'unde-pescuim.ro NS': 'unde-pescuim-ro-ns.json',
  'unde-pescuim.ro CAA': 'unde-pescuim-ro-caa.json',
  'unde-pescuim.ro TXT': 'unde-pescuim-ro-txt.json',
  '_dmarc.unde-pescuim.ro TXT': 'unde-pescuim-ro-dmarc.json',
  'unde-pescuim.ro DS': 'unde-pescuim-ro-ds.json',
  'unde-pescuim.ro DNSKEY': 'unde-pescuim-ro-dnskey.json',
};

type Route = RawResponse | UpstreamError;

/** Answers each provider request from a table: fixture responses, or a failure as the layer would raise it. */
class FixtureCaller implements ProviderCaller {
  readonly asked: string[] = [];
  constructor(private readonly route: (provider: string, request: ProviderRequest) => Route) {}
  isConfigured(): boolean {
    return true;
  }
  async call<T>(provider: ProviderDefinition, request: ProviderRequest, parse: ResponseParser<T>): Promise<ProviderAnswer<T>> {
    const key = provider.id === 'doh' ? `${request.query?.name} ${request.query?.type}` : request.path;
    this.asked.push(`${provider.id} ${key}`);
    const response = this.route(provider.id, request);
    if (response instanceof UpstreamError) throw response;
    return { value: parse(response), source: { provider: provider.id, name: provider.name, url: key, fetchedAt: '2026-08-25T09:57:25.000Z', attribution: provider.attribution } };
  }
}

const NOW = new Date('2026-11-23T00:00:00Z');
const signal = new AbortController().signal;
const timeout = (name: string) => new UpstreamError('timeout', name, 'it did not answer within 5000 ms');

function dohOf(table: Readonly<Record<string, string>>, fallback: Route) {
  return (request: ProviderRequest): Route => {
    const file = table[`${request.query?.name} ${request.query?.type}`];
    return file ? fixtureResponse('doh', file, { contentType: 'application/dns-json' }) : fallback;
  };
}

describe('checkDomain', () => {
  test('unde-pescuim.ro: every record read, SPF and DMARC parsed, DNSSEC secure, .ro without RDAP', async () => {
    const caller = new FixtureCaller((provider, request) =>
      provider === 'doh' ? dohOf(UNDE_PESCUIM, timeout('DNS over HTTPS'))(request) : fixtureResponse('rdap', 'not-found.json', { status: 404 }),
    );
    const report = await checkDomain('unde-pescuim.ro', { upstream: caller, signal, now: () => NOW });
    assert.equal(report.exists, true);
    assert.ok(report.exists && report.dns && report.email && report.dnssec);
    assert.deepEqual(report.dns, {
      a: ['64.29.17.65', '216.198.79.65'],
      aaaa: [],
      mx: [
        { priority: 12, exchange: 'route2.mx.cloudflare.net' },
        { priority: 36, exchange: 'route3.mx.cloudflare.net' },
        { priority: 66, exchange: 'route1.mx.cloudflare.net' },
      ],
      ns: ['sky.ns.cloudflare.com', 'beau.ns.cloudflare.com'],
      caa: [],
      txt: ['v=spf1 include:_spf.mx.cloudflare.net ~all'],
    });
    // SPF: one include (1 lookup); its target was not captured, so the count is 1 and incomplete.
    const spf = report.email.spf!;
    assert.equal(spf.all, '~');
    assert.deepEqual(spf.mechanisms, [
      { qualifier: '+', mechanism: 'include', value: '_spf.mx.cloudflare.net' },
      { qualifier: '~', mechanism: 'all', value: null },
    ]);
    assert.equal(spf.lookups?.count, 1);
    assert.equal(spf.lookups?.complete, false);
    assert.match(spf.lookups!.problems[0]!, /^_spf\.mx\.cloudflare\.net: DNS over HTTPS: it did not answer/);
    // DMARC: p=none, sp falls back to p, pct=100, one rua.
    const dmarc = report.email.dmarc!;
    assert.equal(dmarc.policy, 'none');
    assert.equal(dmarc.subdomainPolicy, 'none');
    assert.equal(dmarc.pct, 100);
    assert.deepEqual(dmarc.rua, ['mailto:contact@unde-pescuim.ro']);
    // DNSSEC: DS 2371/13/2 at .ro, a KSK (257) and a ZSK (256), AD set on every answer.
    assert.equal(report.dnssec.status, 'secure');
    assert.deepEqual(report.dnssec.ds, [{ keyTag: 2371, algorithm: 13, digestType: 2, digest: '111A1861D6DFD0BB619C5200F991982EA806C6D074A8E56EC50CE409DD9F5AA3' }]);
    assert.deepEqual(report.dnssec.dnskey?.map((key) => key.role), ['ZSK', 'KSK']);
    assert.equal(report.registration.available, false);
    assert.match(report.registration.available ? '' : report.registration.reason, /^Registration unknown: the RDAP service holds no record/);
    // Score: DMARC p=none (10) + no CAA (5) = 15, low; age not weighed.
    assert.equal(report.risk.score, 15);
    assert.equal(report.risk.level, 'low');
    assert.deepEqual(report.risk.reasons.map((reason) => reason.code), ['dmarcNone', 'noCaa']);
    assert.deepEqual(report.risk.notWeighed, ['domain age (registration data unavailable)']);
    assert.equal(report.sources.length, 10); // nine DNS answers and the RDAP 404
    assert.ok(caller.asked.includes('rdap /domain/unde-pescuim.ro'));
  });

  test('a subdomain is checked as given; registration is asked for its registrable domain', async () => {
    const caller = new FixtureCaller((provider) => (provider === 'doh' ? fixtureResponse('doh', 'nxdomain.json') : fixtureResponse('rdap', 'not-found.json', { status: 404 })));
    await checkDomain('www.unde-pescuim.ro', { upstream: caller, signal, now: () => NOW });
    assert.ok(caller.asked.includes('doh www.unde-pescuim.ro A'));
    assert.ok(caller.asked.includes('rdap /domain/unde-pescuim.ro'));
  });

  test('NXDOMAIN is an answer: exists false, score 90, critical', async () => {
    const caller = new FixtureCaller((provider) => (provider === 'doh' ? fixtureResponse('doh', 'nxdomain.json') : fixtureResponse('rdap', 'not-found.json', { status: 404 })));
    const report = await checkDomain('unknown.example', { upstream: caller, signal, now: () => NOW });
    assert.equal(report.exists, false);
    assert.equal(report.risk.score, 90);
    assert.equal(report.risk.level, 'critical');
    assert.deepEqual(report.risk.reasons.map((reason) => reason.code), ['nxdomain']);
  });

  test('registration from RDAP: registrar, dates, age in days; an expired date is a reason', async () => {
    const table = Object.fromEntries(Object.entries(UNDE_PESCUIM).map(([key, file]) => [key.replace('unde-pescuim.ro', 'example.com'), file]));
    const caller = new FixtureCaller((provider, request) => (provider === 'doh' ? dohOf(table, timeout('DNS over HTTPS'))(request) : fixtureResponse('rdap', 'example-com.json')));
    const report = await checkDomain('example.com', { upstream: caller, signal, now: () => NOW });
    assert.ok(report.registration.available);
    assert.deepEqual(report.registration.registrar, { name: 'RESERVED-Internet Assigned Numbers Authority', ianaId: '376' });
    // 1995-08-14T04:00Z to 2026-11-23T00:00Z is 11,423 whole days; the expiry 2025-08-13T04:00Z is 466.8 days past.
    assert.equal(report.registration.ageDays, 11423);
    assert.equal(report.registration.daysToExpiry, -467);
    assert.deepEqual(report.risk.reasons.map((reason) => reason.code), ['expiresWithin30Days', 'dmarcNone', 'noCaa']);
    assert.match(report.risk.reasons[0]!.detail, /passed 467 days ago/);
  });

  test('RDAP failing alone leaves registration unavailable, with the reason', async () => {
    const caller = new FixtureCaller((provider, request) =>
      provider === 'doh' ? dohOf(UNDE_PESCUIM, timeout('DNS over HTTPS'))(request) : new UpstreamError('rate_limited', 'RDAP', 'it is rate-limiting us (HTTP 429)', { retryAfterSeconds: 30 }),
    );
    const report = await checkDomain('unde-pescuim.ro', { upstream: caller, signal, now: () => NOW });
    assert.equal(report.registration.available, false);
    assert.match(report.registration.available ? '' : report.registration.reason, /^Registration data unavailable: RDAP: it is rate-limiting us/);
    assert.equal(report.risk.score, 15);
  });

  test('DNS failing entirely fails the call with the layer status (never charged)', async () => {
    const caller = new FixtureCaller((provider) =>
      provider === 'doh' ? new UpstreamError('rate_limited', 'DNS over HTTPS', 'it is rate-limiting us (HTTP 429)', { retryAfterSeconds: 12 }) : fixtureResponse('rdap', 'example-com.json'),
    );
    await assert.rejects(checkDomain('example.com', { upstream: caller, signal, now: () => NOW }), (error: unknown) => {
      assert.ok(error instanceof ToolError);
      assert.equal(error.status, 503);
      assert.equal(error.retryAfterSeconds, 12);
      return true;
    });
    const timeouts = new FixtureCaller((provider) => (provider === 'doh' ? timeout('DNS over HTTPS') : fixtureResponse('rdap', 'example-com.json')));
    await assert.rejects(checkDomain('example.com', { upstream: timeouts, signal, now: () => NOW }), (error: unknown) => error instanceof ToolError && error.status === 504);
  });

  test('one failed query is listed and not weighed; the rest is answered', async () => {
    const table = { ...UNDE_PESCUIM };
    delete (table as Record<string, string>)['unde-pescuim.ro CAA'];
    const caller = new FixtureCaller((provider, request) => (provider === 'doh' ? dohOf(table, new UpstreamError('bad_answer', 'DNS over HTTPS', 'its answer is not JSON'))(request) : fixtureResponse('rdap', 'not-found.json', { status: 404 })));
    const report = await checkDomain('unde-pescuim.ro', { upstream: caller, signal, now: () => NOW });
    assert.deepEqual(report.unavailable.map((entry) => entry.query), ['unde-pescuim.ro CAA']);
    assert.ok(report.risk.notWeighed.includes('CAA (the lookup failed)'));
    assert.equal(report.risk.score, 10);
  });
});

describe('check_domain_security input', () => {
  test('normalises a URL and refuses IPs and dotless names before payment', () => {
    assert.deepEqual(domainLookupTool.input.parse({ domain: 'https://Bücher.DE./x' }), { domain: 'xn--bcher-kva.de' });
    const ip = domainLookupTool.input.safeParse({ domain: '192.0.2.1' });
    assert.equal(ip.success, false);
    assert.match(ip.error!.issues[0]!.message, /is an IP address/);
    assert.deepEqual(ip.error!.issues[0]!.path, ['domain']);
    assert.equal(domainLookupTool.input.safeParse({ domain: 'intranet' }).success, false);
  });
});
