import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { nominatim, parseReverse, parseSearch, reverseGeocode, searchPlace } from './nominatim.ts';
import { failureOf, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';

const signal = new AbortController().signal;
const JSON_TYPE = { contentType: 'application/json; charset=utf-8' };
const fixture = (file: string, status = 200) => fixtureResponse('nominatim', file, { ...JSON_TYPE, status });

describe('parseReverse', () => {
  test('reads a house-level answer: address parts, ISO state code, upper-case country code, OSM link', () => {
    assert.deepEqual(parseReverse(fixture('reverse-house.json')), {
      found: true,
      displayName: '71, Via Guglielmo Marconi, Pioggia, Marconi, Porto-Saragozza, Bologna, Emilia-Romagna, 40122, Italy',
      category: 'place',
      type: 'house',
      osm: { type: 'node', id: 1704756187, url: 'https://www.openstreetmap.org/node/1704756187' },
      latitude: 44.5015307,
      longitude: 11.3398676,
      address: {
        houseNumber: '71',
        road: 'Via Guglielmo Marconi',
        neighbourhood: 'Pioggia',
        suburb: 'Marconi',
        locality: 'Bologna',
        county: 'Bologna',
        state: 'Emilia-Romagna',
        stateCode: 'IT-45',
        postcode: '40122',
        country: 'Italy',
        countryCode: 'IT',
      },
      rawAddress: {
        house_number: '71',
        road: 'Via Guglielmo Marconi',
        neighbourhood: 'Pioggia',
        suburb: 'Marconi',
        city: 'Bologna',
        county: 'Bologna',
        'ISO3166-2-lvl6': 'IT-BO',
        state: 'Emilia-Romagna',
        'ISO3166-2-lvl4': 'IT-45',
        postcode: '40122',
        country: 'Italy',
        country_code: 'it',
      },
    });
  });

  test("reads the documentation's road answer: string ids, a village as the locality, absent parts left out", () => {
    const answer = parseReverse(fixture('reverse-road.json'));
    assert.ok(answer.found);
    assert.equal(answer.name, 'Autopista Pedro Eugenio Aramburu');
    assert.equal(answer.category, 'highway');
    assert.equal(answer.type, 'motorway');
    assert.deepEqual(answer.osm, { type: 'way', id: 280940520, url: 'https://www.openstreetmap.org/way/280940520' });
    assert.equal(answer.latitude, -34.4391708);
    assert.equal(answer.longitude, -58.7064573);
    assert.deepEqual(answer.address, {
      road: 'Autopista Pedro Eugenio Aramburu',
      locality: 'El Triángulo',
      state: 'Buenos Aires',
      postcode: '1.619',
      country: 'Argentina',
      countryCode: 'AR',
    });
    assert.equal(answer.rawAddress.state_district, 'Partido de Malvinas Argentinas');
  });

  test('"Unable to geocode" (open water, no data) is an answer, not a failure', () => {
    assert.deepEqual(parseReverse(fixture('reverse-unable-to-geocode.json')), { found: false, reason: 'Unable to geocode' });
  });

  test('an error object is a failure naming the provider and its message', () => {
    const failure = failureOf(() => parseReverse(fixture('error-400.json', 400)));
    assert.equal(failure.status, 502);
    assert.equal(failure.message, 'Nominatim (OpenStreetMap): it refused the request (HTTP 400: Too many polygon output options selected.). You were not charged.');
  });

  // Not provider captures: bodies that are not the documented answer.
  test('an HTML page (the block page), another error string or a body without a place is a failure', () => {
    assert.match(failureOf(() => parseReverse(rawResponse('<html><body>Access blocked</body></html>', { contentType: 'text/html' }))).message, /not JSON \(text\/html, HTTP 200\)/);
    assert.match(failureOf(() => parseReverse(rawResponse('{"error":"Something else"}', JSON_TYPE))).message, /refused the request \(HTTP 200: Something else\)/);
    assert.match(failureOf(() => parseReverse(rawResponse('[]', JSON_TYPE))).message, /not a JSON object/);
    assert.match(failureOf(() => parseReverse(rawResponse('{"display_name":"x","category":"place","type":"house","lat":"north","lon":"1"}', JSON_TYPE))).message, /no usable lat and lon/);
    assert.match(failureOf(() => parseReverse(rawResponse('{"display_name":"x","class":"place","type":"house","lat":"1","lon":"1"}', JSON_TYPE))).message, /not the jsonv2 format/);
  });
});

describe('parseSearch', () => {
  test("reads the documentation's jsonv2 search answer", () => {
    assert.deepEqual(parseSearch(fixture('search-bakery.json')), [
      {
        name: 'Ditsch',
        displayName: 'Ditsch, Lindower Straße, Sprengelkiez, Wedding, Mitte, Berlin, 13347, Deutschland',
        latitude: 52.54274275,
        longitude: 13.36690305710228,
        category: 'shop',
        type: 'bakery',
        importance: 9.99999999995449e-6,
        countryCode: 'DE',
        osm: { type: 'way', id: 437595031, url: 'https://www.openstreetmap.org/way/437595031' },
      },
    ]);
  });

  test('reads an older server answer with string ids and no name field', () => {
    assert.deepEqual(parseSearch(fixture('search-ottawa.json')), [
      {
        displayName: 'Ottawa, Ontario, Canada',
        latitude: 45.421106,
        longitude: -75.690308,
        category: 'place',
        type: 'city',
        importance: 0.89749985126194,
        countryCode: 'CA',
        osm: { type: 'relation', id: 4136816, url: 'https://www.openstreetmap.org/relation/4136816' },
      },
    ]);
  });

  test('an empty list is nothing found', () => {
    assert.deepEqual(parseSearch(fixture('search-empty.json')), []);
  });

  test('an error object, an HTML page or an object where a list was due is a failure', () => {
    assert.match(failureOf(() => parseSearch(fixture('error-400.json', 400))).message, /HTTP 400: Too many polygon output options selected\./);
    assert.match(failureOf(() => parseSearch(rawResponse('<!DOCTYPE html><html></html>', { contentType: 'text/html' }))).message, /not JSON/);
    assert.match(failureOf(() => parseSearch(rawResponse('{"places":[]}', JSON_TYPE))).message, /not a JSON array/);
  });
});

describe('reverseGeocode', () => {
  test('asks /reverse for jsonv2 at house level with address details, coordinates rounded to 6 decimals', async () => {
    const caller = new RecordingCaller(fixture('reverse-house.json'));
    const answer = await reverseGeocode(caller, { latitude: 44.50155000000049, longitude: 11.339894999999 }, signal);
    const { provider, request } = caller.only();
    assert.equal(provider, nominatim);
    assert.equal(request.path, '/reverse');
    assert.deepEqual(request.query, { format: 'jsonv2', lat: 44.50155, lon: 11.339895, zoom: 18, addressdetails: 1 });
    assert.deepEqual(request.acceptStatuses, [400]);
    assert.equal(answer.value.found, true);
    assert.equal(answer.source.attribution, '© OpenStreetMap contributors, ODbL 1.0 (Nominatim)');
  });

  test('open water is an answer', async () => {
    const caller = new RecordingCaller(fixture('reverse-unable-to-geocode.json'));
    assert.deepEqual((await reverseGeocode(caller, { latitude: 0, longitude: 0 }, signal)).value, { found: false, reason: 'Unable to geocode' });
  });

  test('a parameter error reaches the parser and fails as a bad answer', async () => {
    const caller = new RecordingCaller(fixture('error-400.json', 400));
    await assert.rejects(reverseGeocode(caller, { latitude: 1, longitude: 1 }, signal), (error: Error & { status?: number }) => error.status === 502);
  });
});

describe('searchPlace', () => {
  test('asks /search for jsonv2 with address details, the text trimmed and the limit kept within 1..40', async () => {
    const caller = new RecordingCaller(fixture('search-bakery.json'));
    const answer = await searchPlace(caller, '  bakery in berlin wedding ', signal, 1);
    const { request } = caller.only();
    assert.equal(request.path, '/search');
    assert.deepEqual(request.query, { q: 'bakery in berlin wedding', format: 'jsonv2', limit: 1, addressdetails: 1 });
    assert.equal(answer.value[0]?.name, 'Ditsch');

    const many = new RecordingCaller(fixture('search-empty.json'));
    assert.deepEqual((await searchPlace(many, 'nowhere at all', signal, 500)).value, []);
    assert.equal(many.only().request.query?.limit, 40);
    const defaulted = new RecordingCaller(fixture('search-empty.json'));
    await searchPlace(defaulted, 'x', signal);
    assert.equal(defaulted.only().request.query?.limit, 5);
  });
});

describe('the provider declaration', () => {
  test('follows the public server policy: one request per second, one at a time, cached', () => {
    assert.deepEqual(nominatim.rateLimit, { requests: 1, perMs: 1_000, concurrency: 1, maxQueueMs: 5_000 });
    assert.equal(nominatim.baseUrl.env, 'TOOLGATE_NOMINATIM_URL');
    assert.equal(nominatim.baseUrl.default, 'https://nominatim.openstreetmap.org');
    assert.ok(nominatim.cacheTtlMs >= 24 * 60 * 60_000);
  });
});
