// One loopback server standing in for the outside world of the web tools: every provider, each
// under its own path prefix, answering with its recorded fixtures (see SOURCES.md beside each), and
// a few web pages. Returns the environment that points a gateway at it.
import { providers } from '../../src/upstream/providers/index.ts';
import type { ProviderDefinition } from '../../src/upstream/provider.ts';
import type { FixtureAnswer, FixtureServer, ReceivedRequest } from './fixture-server.ts';
import { fixture, jsonAnswer, startFixtureServer } from './fixture-server.ts';

export interface ProviderRoute {
  /** Provider id, as in src/upstream/providers. */
  provider: string;
  /** Path on the fixture server (prefix + the provider's own path). */
  path: string;
  method: 'GET' | 'POST';
  /** The recorded happy answer. */
  answer: FixtureAnswer;
  /** A 200 that is really an error: a recorded error body or block page served with status 200 (for the Wayback Machine, which documents none: an HTML page instead of its JSON). */
  fakeSuccess: FixtureAnswer;
  /** The status that 200 deserves when it is not 502 (a rate-limit notice is a 503). */
  fakeSuccessStatus?: number;
}

const json = (provider: string, file: string): FixtureAnswer => jsonAnswer(fixture(`upstream/${provider}/${file}`).toString('utf8'));
const html = (provider: string, file: string, status = 200): FixtureAnswer => ({
  status,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: fixture(`upstream/${provider}/${file}`),
});
const page = (file: string, contentType: string): FixtureAnswer => ({ status: 200, headers: { 'content-type': contentType }, body: fixture(`pages/${file}`) });
const text = (body: string): FixtureAnswer => ({ status: 200, headers: { 'content-type': 'text/plain; charset=utf-8' }, body });

/** Base URL settings, each provider under its own prefix. */
export function providerEnv(origin: string): Record<string, string> {
  return {
    TOOLGATE_SEARXNG_URL: `${origin}/searxng`,
    TOOLGATE_BRAVE_URL: `${origin}/brave`,
    TOOLGATE_BRAVE_API_KEY: 'test-brave-key',
    TOOLGATE_DUCKDUCKGO_URL: `${origin}/ddg`,
    TOOLGATE_WAYBACK_URL: `${origin}/wayback-api`,
    TOOLGATE_HN_ALGOLIA_URL: `${origin}/hn`,
    TOOLGATE_WIKIPEDIA_URL: `${origin}/wikipedia-{lang}`,
    TOOLGATE_STACKEXCHANGE_URL: `${origin}/se`,
    TOOLGATE_GDELT_URL: `${origin}/gdelt`,
    TOOLGATE_NOMINATIM_URL: `${origin}/nominatim`,
    TOOLGATE_MYMEMORY_URL: `${origin}/mymemory`,
    TOOLGATE_METNO_URL: `${origin}/metno`,
    TOOLGATE_FRANKFURTER_URL: `${origin}/frankfurter`,
    TOOLGATE_DOH_URL: `${origin}/doh`,
    TOOLGATE_RDAP_URL: `${origin}/rdap`,
  };
}

export const providerRoutes: readonly ProviderRoute[] = [
  { provider: 'searxng', path: '/searxng/search', method: 'GET', answer: json('searxng', 'search-results.json'), fakeSuccess: json('searxng', 'all-engines-failed.json') },
  { provider: 'brave', path: '/brave/res/v1/web/search', method: 'GET', answer: json('brave', 'web-search.json'), fakeSuccess: json('brave', 'rate-limited-429.json') },
  { provider: 'duckduckgo', path: '/ddg/html/', method: 'POST', answer: html('duckduckgo', 'results-uddg-links.html'), fakeSuccess: html('duckduckgo', 'anomaly-challenge.html') },
  { provider: 'wayback', path: '/wayback-api/wayback/available', method: 'GET', answer: json('wayback', 'available.json'), fakeSuccess: { status: 200, headers: { 'content-type': 'text/html' }, body: '<html><body>Temporarily offline</body></html>' } },
  // Relevance search and the front page (tags=front_page) share this path.
  { provider: 'hn-algolia', path: '/hn/api/v1/search', method: 'GET', answer: json('hn-algolia', 'search-stories.json'), fakeSuccess: json('hn-algolia', 'error-400-numeric-filter.json') },
  { provider: 'hn-algolia', path: '/hn/api/v1/search_by_date', method: 'GET', answer: json('hn-algolia', 'search-by-date-stories.json'), fakeSuccess: json('hn-algolia', 'error-400-numeric-filter.json') },
  { provider: 'wikipedia', path: '/wikipedia-en/w/rest.php/v1/search/page', method: 'GET', answer: json('wikipedia', 'search-results.json'), fakeSuccess: { status: 200, headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html><body>Wikimedia Error</body></html>' } },
  // Stack Exchange always compresses; its throttle object says when to come back.
  { provider: 'stackexchange', path: '/se/2.3/search/advanced', method: 'GET', answer: { ...json('stackexchange', 'search-results.json'), gzip: true }, fakeSuccess: { ...json('stackexchange', 'throttle-violation.json'), gzip: true }, fakeSuccessStatus: 503 },
  // GDELT labels its plain-text notices text/html.
  { provider: 'gdelt', path: '/gdelt/api/v2/doc/doc', method: 'GET', answer: json('gdelt', 'articles.json'), fakeSuccess: { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' }, body: fixture('upstream/gdelt/rate-limited.txt') }, fakeSuccessStatus: 503 },
  // The knowledge tools' providers.
  { provider: 'nominatim', path: '/nominatim/reverse', method: 'GET', answer: json('nominatim', 'reverse-house.json'), fakeSuccess: json('nominatim', 'error-400.json') },
  { provider: 'nominatim', path: '/nominatim/search', method: 'GET', answer: json('nominatim', 'search-ottawa.json'), fakeSuccess: json('nominatim', 'error-400.json') },
  // MyMemory's daily quota notice arrives as HTTP 200 with the notice as the "translation".
  { provider: 'mymemory', path: '/mymemory/get', method: 'GET', answer: json('mymemory', 'get-en-pt-br.json'), fakeSuccess: json('mymemory', 'quota-warning.json'), fakeSuccessStatus: 503 },
  // MET Norway's captures are from July 2020: the happy answer is moved to today (see forecastNearNow).
  { provider: 'metno', path: '/metno/weatherapi/locationforecast/2.0/compact', method: 'GET', answer: json('metno', 'compact-new-york.json'), fakeSuccess: json('metno', 'empty-timeseries.json') },
  { provider: 'frankfurter', path: '/frankfurter/v1/latest', method: 'GET', answer: json('frankfurter', 'latest-usd-eur-gbp.json'), fakeSuccess: json('frankfurter', 'v1-root-200.json') },
  { provider: 'wikipedia', path: '/wikipedia-en/api/rest_v1/page/summary/Tokyo', method: 'GET', answer: json('wikipedia', 'summary-tokyo.json'), fakeSuccess: { status: 200, headers: { 'content-type': 'text/html' }, body: '<!DOCTYPE html><html><body>Wikimedia Error</body></html>' } },
  { provider: 'wikipedia', path: '/wikipedia-en/w/api.php', method: 'GET', answer: json('wikipedia', 'links-david-tepper.json'), fakeSuccess: json('wikipedia', 'action-api-error-200.json') },
  // DNS over HTTPS: one path, the record type in the query (dnsAnswers below picks the capture).
  { provider: 'doh', path: '/doh', method: 'GET', answer: json('doh', 'unde-pescuim-ro-a.json'), fakeSuccess: json('doh', 'error-body.json') },
  { provider: 'rdap', path: '/rdap/domain/example.com', method: 'GET', answer: json('rdap', 'example-com.json'), fakeSuccess: json('rdap', 'error-ripe-501.json') },
];

/**
 * The captured DNS answers of unde-pescuim.ro, served for it and for example.com (the tool's
 * example); any other name does not exist.
 */
export function dnsAnswers(request: ReceivedRequest): FixtureAnswer {
  const name = (request.query.get('name') ?? '').toLowerCase().replace(/\.$/, '');
  const type = (request.query.get('type') ?? '').toLowerCase();
  const dnsJson = (file: string): FixtureAnswer => ({ ...json('doh', file), headers: { 'content-type': 'application/dns-json' } });
  const ours = ['unde-pescuim.ro', 'example.com'];
  if (type === 'txt' && ours.some((domain) => name === `_dmarc.${domain}`)) return dnsJson('unde-pescuim-ro-dmarc.json');
  if (ours.includes(name) && ['a', 'aaaa', 'mx', 'ns', 'caa', 'txt', 'ds', 'dnskey'].includes(type)) return dnsJson(`unde-pescuim-ro-${type}.json`);
  return dnsJson('nxdomain.json');
}

/**
 * A captured MET Norway forecast with every time moved by the same whole number of days, so that
 * its first step falls within the last 24 hours: the values and the hours of day are the capture's,
 * and a gateway running today reads current conditions and five local days from it.
 */
export function forecastNearNow(file: string, now: number): FixtureAnswer {
  const forecast = JSON.parse(fixture(`upstream/metno/${file}`).toString('utf8')) as {
    properties: { meta: { updated_at: string }; timeseries: { time: string }[] };
  };
  const DAY = 24 * 60 * 60_000;
  const first = Date.parse(forecast.properties.timeseries[0]?.time ?? '');
  const shift = Math.floor((now - first) / DAY) * DAY;
  const moved = (iso: string) => new Date(Date.parse(iso) + shift).toISOString().replace('.000Z', 'Z');
  forecast.properties.meta.updated_at = moved(forecast.properties.meta.updated_at);
  for (const step of forecast.properties.timeseries) step.time = moved(step.time);
  return jsonAnswer(forecast, 200, { expires: new Date(now + 30 * 60_000).toUTCString(), date: new Date(now).toUTCString() });
}

export interface WebFixtures {
  server: FixtureServer;
  env: Record<string, string>;
  /** http://127.0.0.1:PORT/pages/NAME */
  page(name: string): string;
  /** Puts every provider and page back on its happy answer. */
  restore(): void;
  close(): Promise<void>;
}

export async function startWebFixtures(): Promise<WebFixtures> {
  const server = await startFixtureServer();
  const restore = () => {
    server.reset();
    for (const route of providerRoutes) server.on(route.path, route.answer, route.method);
    server.on('/doh', dnsAnswers);
    server.on('/metno/weatherapi/locationforecast/2.0/compact', () => forecastNearNow('compact-new-york.json', Date.now()));
    server.on('/pages/article.html', page('article.html', 'text/html; charset=utf-8'));
    server.on('/pages/notes.txt', text('Plain notes.\n\nSecond paragraph of the notes.'));
    server.on('/pages/js-app.html', page('js-app.html', 'text/html; charset=utf-8'));
    server.on('/pages/js-app.js', page('js-app.js', 'text/javascript; charset=utf-8'));
    server.on('/pages/js-app-data.json', page('js-app-data.json', 'application/json'));
    server.on('/pages/logo.png', { status: 200, headers: { 'content-type': 'image/png' }, body: Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex') });
  };
  restore();
  return {
    server,
    env: {
      ...providerEnv(server.origin),
      // Caller URLs on this server pass the SSRF guard: only 127.0.0.1, only its port.
      TOOLGATE_SSRF_ALLOW: '127.0.0.1/32',
      TOOLGATE_FETCH_ALLOWED_PORTS: String(server.port),
      TOOLGATE_UPSTREAM_TIMEOUT_MS: '1500',
    },
    page: (name) => `${server.origin}/pages/${name}`,
    restore,
    close: () => server.close(),
  };
}

/**
 * The providers with their rate limits lifted, for tests that call the same provider many times:
 * GDELT's one request per 5 s and Stack Exchange's 300 a day would otherwise pace or refuse them.
 * The limiter itself is tested in src/upstream/upstream.test.ts.
 */
export const unlimitedProviders: readonly ProviderDefinition[] = providers.map((provider) => ({
  ...provider,
  rateLimit: { requests: 1_000, perMs: 1_000, concurrency: 16, maxQueueMs: 2_000 },
}));
