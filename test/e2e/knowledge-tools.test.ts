// The knowledge tools paid for end to end on anvil, every provider replayed by the loopback fixture
// server: answers computed by hand from the fixtures, answers that are not errors (open water),
// refusals before payment, provider failures never settled, and Nominatim's one request per second.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { fixture, jsonAnswer } from '../support/fixture-server.ts';
import { assertNotCharged, payFor, withQuery } from '../support/paid-call.ts';
import { fundedPayer } from '../support/payments.ts';
import type { WebFixtures } from '../support/web-fixtures.ts';
import { startWebFixtures } from '../support/web-fixtures.ts';

let web: WebFixtures;
let t: TestGateway;
// The providers as declared: Nominatim's one request per second is part of what is tested here.
before(async () => {
  web = await startWebFixtures();
  t = await startTestGateway({ env: web.env });
});
after(async () => {
  await t?.close();
  await web?.close();
});
beforeEach(() => web.restore());

const recorded = (provider: string, file: string) => jsonAnswer(fixture(`upstream/${provider}/${file}`).toString('utf8'));
const requestsTo = (path: string) => web.server.requests.filter((r) => r.path === path);

describe('reverse_geocode', () => {
  test('a street address from Nominatim, and offline the country, time zone and nearest place; settled at 0.003', async () => {
    // reverse-house.json answers for 44.50155, 11.33989 (Via Guglielmo Marconi 71, Bologna).
    const call = await payFor(t, withQuery('/api/geo/reverse', { lat: '44.50155', lon: '11.33989' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.settled, true);
    assert.equal(call.spent, 3000n);
    const address = call.body.address as Record<string, string>;
    assert.equal(address.houseNumber, '71');
    assert.equal(address.road, 'Via Guglielmo Marconi');
    assert.equal(address.locality, 'Bologna');
    assert.equal(address.stateCode, 'IT-45');
    assert.equal(address.countryCode, 'IT');
    assert.deepEqual(call.body.country, { code: 'IT', code3: 'ITA', name: 'Italy' });
    const zone = call.body.timeZone as { id: string; utcOffset: string };
    assert.equal(zone.id, 'Europe/Rome');
    assert.match(zone.utcOffset, /^\+0[12]:00$/);
    const nearest = call.body.nearestPlace as { name: string; distanceKm: number };
    assert.equal(nearest.name, 'Bologna');
    assert.ok(nearest.distanceKm < 2);
    assert.match(JSON.stringify(call.body.source), /OpenStreetMap contributors, ODbL/);
    const sent = requestsTo('/nominatim/reverse').at(-1)!;
    assert.equal(sent.query.get('format'), 'jsonv2');
    assert.equal(sent.query.get('addressdetails'), '1');
    assert.match(String(sent.headers['user-agent']), /^toolgate\//);
  });

  test('open water is an answer: no address, the nautical time zone, paid', async () => {
    web.server.on('/nominatim/reverse', recorded('nominatim', 'reverse-unable-to-geocode.json'));
    const call = await payFor(t, withQuery('/api/geo/reverse', { lat: '0', lon: '-20' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.settled, true);
    assert.equal(call.body.found, false);
    assert.equal(call.body.address, null);
    assert.equal(call.body.country, null);
    assert.equal((call.body.timeZone as { id: string }).id, 'Etc/GMT+1');
    assert.match(String(call.body.message), /open water/);
  });

  test('out-of-range coordinates are a 400 naming the field, before payment', async () => {
    for (const [lat, lon, field] of [['91', '0', 'lat'], ['0', '-181', 'lon'], ['north', '3', 'lat']] as const) {
      const response = await fetch(`${t.baseUrl}${withQuery('/api/geo/reverse', { lat, lon })}`);
      assert.equal(response.status, 400, `${lat},${lon}`);
      assert.match(JSON.stringify(await response.json()), new RegExp(field));
    }
  });

  test('the same point again is served from the cache: Nominatim is asked once', async () => {
    const before = requestsTo('/nominatim/reverse').length;
    const first = await payFor(t, withQuery('/api/geo/reverse', { lat: '44.5015', lon: '11.3399' }));
    const second = await payFor(t, withQuery('/api/geo/reverse', { lat: '44.5015', lon: '11.3399' }));
    assert.equal(first.status, 200);
    assert.equal(second.status, 200);
    assert.equal(requestsTo('/nominatim/reverse').length, before + 1);
    assert.equal((second.body.source as { fetchedAt: string }).fetchedAt, (first.body.source as { fetchedAt: string }).fetchedAt);
  });

  test('one request per second for the whole gateway: concurrent lookups queue, those that would wait over 5 s get 503 with Retry-After, free', async () => {
    await new Promise((resolve) => setTimeout(resolve, 1_100)); // earlier tests' turns have passed
    const arrivals: number[] = [];
    web.server.on('/nominatim/reverse', () => {
      arrivals.push(Date.now());
      return recorded('nominatim', 'reverse-house.json');
    });
    const payers = [];
    for (let i = 0; i < 8; i += 1) payers.push(await fundedPayer(t.devChain, '1')); // minting is one nonce sequence
    const calls = await Promise.all(payers.map((payer, i) => payFor(t, withQuery('/api/geo/reverse', { lat: String(10 + i), lon: '20.5' }), { payer })));
    const answered = calls.filter((c) => c.status === 200);
    const refused = calls.filter((c) => c.status === 503);
    assert.equal(answered.length + refused.length, calls.length, calls.map((c) => c.status).join(','));
    assert.ok(answered.length >= 5 && answered.length <= 6, `answered ${answered.length}`);
    assert.ok(refused.length >= 2, `refused ${refused.length}`);
    arrivals.sort((a, b) => a - b);
    // The layer sends them exactly 1 s apart; what the server sees carries a little network jitter.
    for (let i = 1; i < arrivals.length; i += 1) assert.ok(arrivals[i]! - arrivals[i - 1]! >= 900, `requests ${i - 1} and ${i} were ${arrivals[i]! - arrivals[i - 1]!} ms apart`);
    assert.ok(arrivals.at(-1)! - arrivals[0]! >= (arrivals.length - 1) * 1_000 - 100, `${arrivals.length} requests within ${arrivals.at(-1)! - arrivals[0]!} ms`);
    assert.equal(arrivals.length, answered.length, 'a refused call sent nothing');
    for (const call of refused) {
      assertNotCharged(call);
      assert.match(call.headers.get('retry-after') ?? '', /^\d+$/);
      assert.match(String(call.body.message), /Nominatim/);
    }
    for (const call of answered) assert.equal(call.settled, true);
  });
});

describe('translate_language', () => {
  test('MyMemory translates; the detected language is reported; settled at 0.005', async () => {
    // get-en-pt-br.json answers "hello world" en -> pt-BR with "olá mundo".
    const call = await payFor(t, '/api/ai/translate', { method: 'POST', body: { text: 'hello world', sourceLang: 'en', targetLang: 'pt-BR' } });
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.settled, true);
    assert.equal(call.spent, 5000n);
    assert.equal(call.body.translatedText, 'olá mundo');
    assert.equal(call.body.provider, 'mymemory');
    assert.ok(call.body.detected && typeof call.body.detected === 'object');
    const sent = requestsTo('/mymemory/get').at(-1)!;
    assert.equal(sent.query.get('q'), 'hello world');
    assert.equal(sent.query.get('langpair'), 'en|pt-BR');
  });

  test("MyMemory's quota notice, delivered as a 200 translation, is a 503 with Retry-After and never sold", async () => {
    web.server.on('/mymemory/get', recorded('mymemory', 'quota-warning.json'));
    const call = await payFor(t, '/api/ai/translate', { method: 'POST', body: { text: 'quota day', sourceLang: 'en', targetLang: 'de' } });
    assert.equal(call.status, 503, JSON.stringify(call.body));
    assertNotCharged(call);
    assert.match(call.headers.get('retry-after') ?? '', /^\d+$/);
    assert.doesNotMatch(JSON.stringify(call.body), /translatedText/);
  });

  test('an unknown language code is a 400 with the supported list, before payment', async () => {
    const response = await fetch(`${t.baseUrl}/api/ai/translate`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ text: 'hi', targetLang: 'xx' }) });
    assert.equal(response.status, 400);
    const body = JSON.stringify(await response.json());
    assert.match(body, /targetLang/);
    assert.match(body, /\bfr\b/);
  });
});

describe('check_domain_security', () => {
  test('DNS, SPF, DMARC, DNSSEC from DNS over HTTPS and registration from RDAP (through its redirect), with a score and its reasons; settled at 0.005', async () => {
    // rdap.org answers with a redirect to the registry, which the layer follows through the SSRF guard.
    web.server.on('/rdap/domain/example.com', { status: 302, headers: { location: `${web.server.origin}/registry-rdap/domain/example.com` } });
    web.server.on('/registry-rdap/domain/example.com', recorded('rdap', 'example-com.json'));
    const call = await payFor(t, withQuery('/api/security/domain-lookup', { domain: 'https://Example.COM/some/page' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.settled, true);
    assert.equal(call.spent, 5000n);
    assert.equal(call.body.domain, 'example.com');
    assert.equal(call.body.exists, true);
    const email = call.body.email as { spf: { found: boolean; all: string }; dmarc: { policy: string } };
    assert.equal(email.spf.found, true);
    assert.equal(email.spf.all, '~');
    assert.equal(email.dmarc.policy, 'none');
    const registration = call.body.registration as { available: boolean; registered?: string };
    assert.equal(registration.available, true, JSON.stringify(registration));
    assert.match(String(registration.registered), /^1995-08-14/);
    const risk = call.body.risk as { score: number; reasons: { code: string }[] };
    assert.ok(risk.score >= 0 && risk.score <= 100);
    assert.ok(risk.reasons.some((r) => r.code === 'dmarcNone'));
    const asked = requestsTo('/doh').map((r) => r.query.get('type')?.toUpperCase());
    for (const type of ['A', 'AAAA', 'MX', 'NS', 'CAA', 'TXT', 'DS', 'DNSKEY']) assert.ok(asked.includes(type), `asked ${type}`);
    assert.equal(requestsTo('/doh')[0]?.headers.accept, 'application/dns-json');
  });

  test('a name that does not exist is an answer: NXDOMAIN, high risk, paid', async () => {
    web.server.on('/rdap/domain/no-such-name-here.com', recorded('rdap', 'not-found.json'));
    const call = await payFor(t, withQuery('/api/security/domain-lookup', { domain: 'no-such-name-here.com' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.settled, true);
    assert.equal(call.body.exists, false);
    assert.ok((call.body.risk as { score: number }).score >= 80);
  });

  test('an IP address or a name without a dot is a 400 naming the field, before payment', async () => {
    for (const domain of ['192.0.2.1', 'localhost', '']) {
      const response = await fetch(`${t.baseUrl}${withQuery('/api/security/domain-lookup', { domain })}`);
      assert.equal(response.status, 400, domain);
      assert.match(JSON.stringify(await response.json()), /domain/);
    }
  });
});

describe('get_live_weather', () => {
  interface Weather {
    location: { name: string; country: { code: string } | null; latitude: number; longitude: number; timeZone: string; resolvedBy: string; ambiguous: boolean; alternatives?: { country: string; region?: string }[] };
    timeZone: string;
    units: Record<string, string>;
    current: { temperature: number; windSpeed: number; condition: { text: string } | null };
    daily: { date: string; temperatureMin: number; temperatureMax: number; precipitationSum: number }[];
    sources: { provider: string; attribution: string }[];
  }
  const weather = async (location: string) => {
    const call = await payFor(t, withQuery('/api/tools/weather', { location }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.settled, true);
    assert.equal(call.spent, 2000n);
    return call.body as unknown as Weather;
  };

  test('a name from the offline gazetteer: current conditions and five local days from MET Norway, units and time zone stated', async () => {
    const answer = await weather('Oslo');
    assert.equal(answer.location.name, 'Oslo');
    assert.equal(answer.location.country?.code, 'NO');
    assert.equal(answer.location.resolvedBy, 'gazetteer');
    assert.equal(answer.location.timeZone, 'Europe/Oslo');
    assert.equal(answer.daily.length, 5);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Oslo' }).format(new Date());
    assert.equal(answer.daily[0]!.date, today, 'days are Oslo\'s local dates, starting today');
    for (const day of answer.daily) assert.ok(day.temperatureMin <= day.temperatureMax);
    assert.equal(answer.units.temperature, 'celsius');
    assert.equal(typeof answer.current.temperature, 'number');
    assert.ok(answer.current.condition?.text);
    assert.match(JSON.stringify(answer.sources), /MET Norway.*CC BY 4\.0/);
    const sent = requestsTo('/metno/weatherapi/locationforecast/2.0/compact').at(-1)!;
    for (const key of ['lat', 'lon']) assert.match(sent.query.get(key) ?? '', /^-?\d+(\.\d{1,4})?$/, `${key} has at most 4 decimals`);
    assert.equal(requestsTo('/nominatim/search').length, 0, 'a gazetteer name asks no geocoder');
  });

  test('a region narrows the name ("Paris, TX"); without it the capital wins and the others are listed', async () => {
    const texas = await weather('Paris, TX');
    assert.equal(texas.location.country?.code, 'US');
    assert.equal(texas.location.timeZone, 'America/Chicago');
    assert.equal(texas.location.ambiguous, false);
    const paris = await weather('Paris');
    assert.equal(paris.location.country?.code, 'FR');
    assert.equal(paris.location.ambiguous, true);
    assert.ok(paris.location.alternatives?.some((a) => a.country === 'US' && a.region === 'TX'));
  });

  test('coordinates are used as given; a name the gazetteer lacks goes to Nominatim search', async () => {
    const point = await weather('40.7,-74');
    assert.equal(point.location.resolvedBy, 'coordinates');
    assert.equal(point.location.timeZone, 'America/New_York');
    const online = await weather('Springfield, Sangamon County');
    assert.equal(online.location.resolvedBy, 'nominatim');
    assert.match(online.location.name, /^Ottawa/); // search-ottawa.json answers every search here
    assert.equal(online.location.timeZone, 'America/Toronto');
    assert.deepEqual(online.sources.map((s) => s.provider), ['nominatim', 'metno']);
  });

  test('a place nobody knows is a 404, and a latitude out of range a 400 before payment: neither charged', async () => {
    web.server.on('/nominatim/search', recorded('nominatim', 'search-empty.json'));
    const missing = await payFor(t, withQuery('/api/tools/weather', { location: 'Qqqxxz Nowhere' }));
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    assertNotCharged(missing);
    const response = await fetch(`${t.baseUrl}${withQuery('/api/tools/weather', { location: '95,10' })}`);
    assert.equal(response.status, 400);
    assert.match(JSON.stringify(await response.json()), /latitude 95/);
  });
});

describe('lookup_wiki_fact', () => {
  test('an exact title: the page summary with its permanent link, Wikidata id and CC BY-SA attribution; settled at 0.002', async () => {
    const call = await payFor(t, withQuery('/api/info/wiki', { query: 'Tokyo', lang: 'en' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.settled, true);
    assert.equal(call.spent, 2000n);
    assert.equal(call.body.matchedBy, 'title');
    assert.equal(call.body.title, 'Tokyo');
    assert.equal(call.body.wikidataId, 'Q1490');
    assert.equal(call.body.url, 'https://en.wikipedia.org/wiki/Tokyo');
    assert.match(String(call.body.permanentUrl), /^https:\/\/en\.wikipedia\.org\/w\/index\.php\?title=Tokyo&oldid=\d+$/);
    assert.match(JSON.stringify(call.body.attribution), /CC BY-SA 4\.0/);
  });

  test('a disambiguation page answers with its options, not a summary of nothing', async () => {
    web.server.on('/wikipedia-en/api/rest_v1/page/summary/Dart', recorded('wikipedia', 'summary-dart-disambiguation.json'));
    const call = await payFor(t, withQuery('/api/info/wiki', { query: 'Dart' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.body.disambiguation, true);
    const options = call.body.options as { title: string; url: string }[];
    assert.ok(options.length > 3);
    assert.ok(options.every((o) => o.url.startsWith('https://en.wikipedia.org/wiki/')));
    assert.equal(requestsTo('/wikipedia-en/w/api.php').at(-1)?.query.get('prop'), 'links');
  });

  test('nothing found is a 404, and a language Wikipedia does not have a 400 before payment: neither charged', async () => {
    web.server.on('/wikipedia-en/api/rest_v1/page/summary/Qqzx_Nothing', { ...recorded('wikipedia', 'summary-not-found-404.json'), status: 404, headers: { 'content-type': 'application/problem+json' } });
    web.server.on('/wikipedia-en/w/rest.php/v1/search/page', recorded('wikipedia', 'no-results.json'));
    const missing = await payFor(t, withQuery('/api/info/wiki', { query: 'Qqzx Nothing' }));
    assert.equal(missing.status, 404, JSON.stringify(missing.body));
    assertNotCharged(missing);
    const response = await fetch(`${t.baseUrl}${withQuery('/api/info/wiki', { query: 'Tokyo', lang: 'xx' })}`);
    assert.equal(response.status, 400);
    assert.match(JSON.stringify(await response.json()), /lang/);
  });
});

describe('get_exchange_rates', () => {
  test("ECB reference rates through Frankfurter: each rate as published, the rates' date, a base among the quotes is 1", async () => {
    // latest-usd-eur-gbp.json: base USD, 2026-08-10, EUR 0.86543, GBP 0.7405.
    const call = await payFor(t, withQuery('/api/finance/fx', { from: 'USD', to: 'EUR,GBP,USD' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.settled, true);
    assert.equal(call.spent, 2000n);
    assert.equal(call.body.base, 'USD');
    assert.equal(call.body.date, '2026-08-10');
    assert.deepEqual(call.body.rates, { EUR: '0.86543', GBP: '0.7405', USD: '1' });
    assert.equal(requestsTo('/frankfurter/v1/latest').at(-1)?.query.get('base'), 'USD');
  });

  test('an unknown currency is a 400 naming it, with the supported list, before payment', async () => {
    const response = await fetch(`${t.baseUrl}${withQuery('/api/finance/fx', { from: 'USD', to: 'EUR,XYZ' })}`);
    assert.equal(response.status, 400);
    const body = JSON.stringify(await response.json());
    assert.match(body, /XYZ/);
    assert.match(body, /CHF/);
  });

  // Past the next publication the same failure serves the cached rates marked stale: exchange-rates.test.ts drives the clock for that.
  test('when Frankfurter fails, rates still fresh until the next publication come from the cache; rates never fetched are a 503, free', async () => {
    const fresh = await payFor(t, withQuery('/api/finance/fx', { from: 'USD', to: 'EUR,GBP' }));
    assert.equal(fresh.status, 200, JSON.stringify(fresh.body));
    web.server.on('/frankfurter/v1/latest', { status: 503, headers: { 'retry-after': '1' }, body: 'down' });
    const cached = await payFor(t, withQuery('/api/finance/fx', { from: 'USD', to: 'EUR,GBP' }));
    assert.equal(cached.status, 200);
    assert.equal(cached.body.stale, false);
    const never = await payFor(t, withQuery('/api/finance/fx', { from: 'CHF', to: 'JPY' }));
    assert.equal(never.status, 503, JSON.stringify(never.body));
    assertNotCharged(never);
  });
});
