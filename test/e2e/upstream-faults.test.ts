// The fault matrix: every provider of the web and knowledge tools misbehaves in each way a real one does (429
// with Retry-After, 500, 503, a timeout, malformed and oversize bodies, a reset connection, a 200
// that is really an error). Each time the paid call gets the right status and a message naming the
// provider, and nothing is settled on chain. Tools that fan out are faulted on every provider.
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import type { FixtureAnswer } from '../support/fixture-server.ts';
import { assertNotCharged, payFor } from '../support/paid-call.ts';
import type { ProviderRoute, WebFixtures } from '../support/web-fixtures.ts';
import { providerRoutes, startWebFixtures, unlimitedProviders } from '../support/web-fixtures.ts';

let web: WebFixtures;
let t: TestGateway;
before(async () => {
  web = await startWebFixtures();
  t = await startTestGateway({ env: web.env, providers: unlimitedProviders });
});
after(async () => {
  await t?.close();
  await web?.close();
});

interface Fault {
  name: string;
  answer(route: ProviderRoute): FixtureAnswer;
  status: number | ((route: ProviderRoute) => number);
  message: RegExp;
  retryAfter?: boolean;
}

/** Larger than every provider's size cap (2 MB at most). */
const OVERSIZE = Buffer.alloc(3 * 1024 * 1024, 0x20);

const faults: Fault[] = [
  { name: '500', answer: () => ({ status: 500, body: 'Internal Server Error' }), status: 502, message: /answered HTTP 500/ },
  { name: '503', answer: () => ({ status: 503, headers: { 'retry-after': '7' }, body: 'Service Unavailable' }), status: 503, message: /temporarily unavailable/, retryAfter: true },
  { name: 'timeout', answer: (route) => ({ ...route.answer, delayMs: 2_500 }), status: 504, message: /did not answer within/ },
  { name: 'malformed body', answer: (route) => ({ ...route.answer, body: String(route.answer.body).slice(0, 120) }), status: 502, message: /./ },
  { name: 'oversize body', answer: (route) => ({ ...route.answer, body: OVERSIZE }), status: 502, message: /larger than the \d+-byte limit/ },
  { name: 'connection reset', answer: () => ({ reset: true }), status: 503, message: /could not be reached/, retryAfter: true },
  { name: 'a 200 that is really an error', answer: (route) => route.fakeSuccess, status: (route) => route.fakeSuccessStatus ?? 502, message: /./ },
  // Last: a 429 pauses the provider for everyone until its Retry-After.
  { name: '429 with Retry-After', answer: () => ({ status: 429, headers: { 'retry-after': '90', 'content-type': 'application/json' }, body: '{}' }), status: 503, message: /rate-limiting this gateway|slow down/, retryAfter: true },
];

interface FaultedTool {
  tool: string;
  /** A query unique to the fault, so no cached answer stands in for the provider. */
  path(fault: string): string;
  /** A JSON body, unique to the fault, for a POST tool. */
  body?(fault: string): unknown;
  /** The fixture paths of every provider request the tool makes. */
  routes: readonly string[];
}

const tools: FaultedTool[] = [
  { tool: 'lookup_wayback_snapshot', path: (fault) => `/api/web/wayback?${new URLSearchParams({ url: `https://fault.example/${encodeURIComponent(fault)}` })}`, routes: ['/wayback-api/wayback/available'] },
  { tool: 'search_web', path: (fault) => `/api/search?${new URLSearchParams({ q: `fault ${fault}` })}`, routes: ['/searxng/search', '/brave/res/v1/web/search', '/ddg/html/'] },
  // The front page is one request whatever the fault, so the query-less call must not be cached: each fault is its own limit.
  { tool: 'get_trending_news (front page)', path: (fault) => `/api/news/trending?limit=${faults.findIndex((f) => f.name === fault) + 1}`, routes: ['/hn/api/v1/search'] },
  { tool: 'search_deep_meta', path: (fault) => `/api/search/deep?${new URLSearchParams({ q: `fault ${fault}` })}`, routes: ['/searxng/search', '/brave/res/v1/web/search', '/ddg/html/', '/wikipedia-en/w/rest.php/v1/search/page', '/hn/api/v1/search', '/se/2.3/search/advanced'] },
  { tool: 'get_trending_news (topic)', path: (fault) => `/api/news/trending?${new URLSearchParams({ topic: `fault ${fault}` })}`, routes: ['/hn/api/v1/search_by_date', '/gdelt/api/v2/doc/doc'] },
  { tool: 'get_live_weather', path: (fault) => `/api/tools/weather?${new URLSearchParams({ location: `${(40 + faultIndex(fault) / 100).toFixed(2)},-74` })}`, routes: ['/metno/weatherapi/locationforecast/2.0/compact'] },
  { tool: 'reverse_geocode', path: (fault) => `/api/geo/reverse?lat=${(10 + faultIndex(fault) / 100).toFixed(2)}&lon=20`, routes: ['/nominatim/reverse'] },
  { tool: 'translate_language', path: () => '/api/ai/translate', body: (fault) => ({ text: `fault ${fault}`, sourceLang: 'en', targetLang: 'de' }), routes: ['/mymemory/get'] },
  { tool: 'get_exchange_rates', path: (fault) => `/api/finance/fx?from=${['USD', 'GBP', 'JPY', 'CHF', 'CAD', 'AUD', 'SEK', 'NOK'][faultIndex(fault)]}&to=EUR`, routes: ['/frankfurter/v1/latest'] },
  { tool: 'lookup_wiki_fact', path: () => '/api/info/wiki?query=Tokyo', routes: ['/wikipedia-en/api/rest_v1/page/summary/Tokyo'] },
  { tool: 'check_domain_security', path: (fault) => `/api/security/domain-lookup?domain=fault-${faultIndex(fault)}.example`, routes: ['/doh'] },
];

function faultIndex(name: string): number {
  return faults.findIndex((f) => f.name === name);
}

const routeOf = (path: string) => {
  const route = providerRoutes.find((r) => r.path === path);
  assert.ok(route, `no fixture route for ${path}`);
  return route;
};

for (const fault of faults) {
  describe(fault.name, () => {
    for (const faulted of tools) {
      test(`${faulted.tool}: the right status, every provider named, nothing settled`, async () => {
        web.restore();
        const routes = faulted.routes.map(routeOf);
        for (const route of routes) web.server.on(route.path, fault.answer(route), route.method);
        const statuses = new Set(routes.map((route) => (typeof fault.status === 'function' ? fault.status(route) : fault.status)));
        const expected = statuses.size === 1 ? [...statuses][0] : statuses.has(503) ? 503 : 502;

        const body = faulted.body?.(fault.name);
        const call = await payFor(t, faulted.path(fault.name), body === undefined ? {} : { method: 'POST', body });
        const message = String(call.body.message);

        assert.equal(call.status, expected, JSON.stringify(call.body));
        for (const route of routes) assert.ok(message.includes(`${providerName(route.provider)}:`), `names ${route.provider}: ${message}`);
        assert.match(message, fault.message);
        assertNotCharged(call);
        assert.equal(call.headers.get('payment-response'), null, 'no PAYMENT-RESPONSE');
        if (fault.retryAfter) assert.match(call.headers.get('retry-after') ?? '', /^\d+$/, 'Retry-After says when to come back');
      });
    }
  });
}

function providerName(id: string): string {
  return t.gateway.upstream.providers.find((p) => p.id === id)?.name ?? id;
}
