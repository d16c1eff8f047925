import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RawResponse } from '../http/http-types.ts';
import { fetchCompactForecast, fourDecimals, metFreshFor, metno, parseCompactForecast } from './metno.ts';
import { failureOf, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';

const signal = new AbortController().signal;
const JSON_TYPE = { contentType: 'application/json' };

/** The headers MET sent with compact-new-york.json (recorded beside it, see SOURCES.md). */
const NEW_YORK_HEADERS = {
  date: 'Mon, 20 Jul 2020 11:44:31 GMT',
  expires: 'Mon, 20 Jul 2020 12:14:53 GMT',
  'last-modified': 'Mon, 20 Jul 2020 11:44:31 GMT',
  age: '0',
};

function withHeaders(response: RawResponse, headers: Record<string, string>): RawResponse {
  return { ...response, headers: { ...response.headers, ...headers } };
}

describe('parseCompactForecast', () => {
  test('reads the captured New York answer: point, meta, 82 sorted steps', () => {
    const forecast = parseCompactForecast(fixtureResponse('metno', 'compact-new-york.json', JSON_TYPE));
    assert.equal(forecast.latitude, 40.7);
    assert.equal(forecast.longitude, -74);
    assert.equal(forecast.altitudeM, 10);
    assert.equal(forecast.updatedAt, '2020-07-20T01:30:57Z');
    assert.equal(forecast.units.air_temperature, 'celsius');
    assert.equal(forecast.units.air_pressure_at_sea_level, 'hPa');
    assert.equal(forecast.deprecated, false);
    assert.equal(forecast.timeseries.length, 82);
    const [first] = forecast.timeseries;
    assert.deepEqual(first, {
      time: '2020-07-20T11:00:00Z',
      epochMs: Date.UTC(2020, 6, 20, 11),
      instant: { airTemperature: 26.5, airPressureAtSeaLevel: 1010.7, cloudAreaFraction: 69.5, relativeHumidity: 81.3, windFromDirection: 243.4, windSpeed: 3.8 },
      next1Hours: { symbolCode: 'partlycloudy_day', precipitationAmount: 0 },
      next6Hours: { symbolCode: 'partlycloudy_day', precipitationAmount: 0 },
      next12Hours: { symbolCode: 'partlycloudy_day' },
    });
  });

  test('the 6-hourly part carries next_6_hours only, and the last step no period at all', () => {
    const { timeseries } = parseCompactForecast(fixtureResponse('metno', 'compact-new-york.json', JSON_TYPE));
    const switchStep = timeseries.find((step) => step.time === '2020-07-22T18:00:00Z');
    assert.equal(switchStep?.next1Hours, undefined);
    assert.deepEqual(switchStep?.next6Hours, { symbolCode: 'partlycloudy_day', precipitationAmount: 0 });
    const rainy = timeseries.find((step) => step.time === '2020-07-23T00:00:00Z');
    assert.deepEqual(rainy?.next6Hours, { symbolCode: 'rainshowers_night', precipitationAmount: 3 });
    const last = timeseries.at(-1);
    assert.equal(last?.time, '2020-07-29T06:00:00Z');
    assert.equal(last?.next1Hours, undefined);
    assert.equal(last?.next6Hours, undefined);
  });

  test('reads the Beijing answer (asked without altitude: MET adds its own)', () => {
    const forecast = parseCompactForecast(fixtureResponse('metno', 'compact-beijing.json', JSON_TYPE));
    assert.deepEqual([forecast.latitude, forecast.longitude, forecast.altitudeM], [39.9, 116.4, 50]);
    assert.equal(forecast.timeseries[0]?.instant.airTemperature, 30.4);
  });

  test('HTTP 203 is still data, marked deprecated', () => {
    const forecast = parseCompactForecast(fixtureResponse('metno', 'compact-new-york.json', { status: 203, contentType: 'application/json' }));
    assert.equal(forecast.deprecated, true);
    assert.equal(forecast.timeseries.length, 82);
  });

  test('statuses MET documents are failures that say what MET meant', () => {
    const forbidden = failureOf(() => parseCompactForecast(rawResponse('', { status: 403 })));
    assert.equal(forbidden.status, 502);
    assert.match(forbidden.message, /^MET Norway Locationforecast: it refused this gateway \(HTTP 403\).*TOOLGATE_CONTACT/);
    assert.match(failureOf(() => parseCompactForecast(rawResponse('', { status: 422 }))).message, /HTTP 422/);
    assert.match(failureOf(() => parseCompactForecast(rawResponse('', { status: 404 }))).message, /no forecast data/);
  });

  test('a 200 that is not a usable forecast is a bad answer', () => {
    const empty = failureOf(() => parseCompactForecast(fixtureResponse('metno', 'empty-timeseries.json', JSON_TYPE)));
    assert.equal(empty.status, 502);
    assert.match(empty.message, /no time steps/);
    assert.match(failureOf(() => parseCompactForecast(fixtureResponse('metno', 'error-400.html', { contentType: 'text/html' }))).message, /not JSON/);
    assert.match(failureOf(() => parseCompactForecast(rawResponse('{"type":"FeatureCollection"}', JSON_TYPE))).message, /not the forecast GeoJSON Feature/);
  });

  test('a changed unit the client computes with is refused rather than mislabelled', () => {
    const body = JSON.parse(fixtureResponse('metno', 'compact-new-york.json').body.toString('utf8'));
    body.properties.meta.units.air_temperature = 'fahrenheit';
    assert.match(failureOf(() => parseCompactForecast(rawResponse(JSON.stringify(body), JSON_TYPE))).message, /air_temperature is now in "fahrenheit"/);
  });
});

describe('metFreshFor', () => {
  const response = withHeaders(fixtureResponse('metno', 'compact-new-york.json', JSON_TYPE), NEW_YORK_HEADERS);

  test('fresh until Expires, measured on MET\'s own clock (Expires - Date)', () => {
    // 12:14:53 - 11:44:31 = 30 min 22 s = 1,822,000 ms, whatever our clock says.
    assert.equal(metFreshFor(response, Date.UTC(2030, 0, 1)), 1_822_000);
  });

  test('less the Age an intermediate cache has spent; within a minute and six hours', () => {
    assert.equal(metFreshFor(withHeaders(response, { age: '22' }), 0), 1_800_000);
    assert.equal(metFreshFor(withHeaders(response, { expires: NEW_YORK_HEADERS.date }), 0), 60_000);
    assert.equal(metFreshFor(withHeaders(response, { expires: 'Tue, 21 Jul 2020 11:44:31 GMT' }), 0), 6 * 60 * 60_000);
  });

  test('without a Date, from now; without a usable Expires, the provider default', () => {
    const { date: _date, ...noDate } = response.headers;
    assert.equal(metFreshFor({ ...response, headers: noDate }, Date.parse('Mon, 20 Jul 2020 12:00:00 GMT')), 893_000);
    assert.equal(metFreshFor(withHeaders(response, { expires: 'soon' }), 0), undefined);
    assert.equal(metFreshFor(rawResponse('{}'), 0), undefined);
  });
});

describe('fetchCompactForecast', () => {
  test('asks the compact endpoint with coordinates at 4 decimals and its own freshness', async () => {
    const caller = new RecordingCaller(fixtureResponse('metno', 'compact-new-york.json', JSON_TYPE));
    const answer = await fetchCompactForecast(caller, 40.712776, -74.005974, signal);
    const { provider, request } = caller.only();
    assert.equal(provider, metno);
    assert.equal(request.path, '/weatherapi/locationforecast/2.0/compact');
    assert.deepEqual(request.query, { lat: '40.7128', lon: '-74.006' });
    assert.deepEqual(request.acceptStatuses, [403, 404, 422]);
    assert.equal(request.freshFor, metFreshFor);
    assert.equal(answer.value.timeseries.length, 82);
    assert.match(answer.source.attribution, /MET Norway.*CC BY 4\.0/);
  });

  test('four decimals: no trailing zeros, no "-0", no exponent', () => {
    assert.equal(fourDecimals(59.91386), '59.9139');
    assert.equal(fourDecimals(-74), '-74');
    assert.equal(fourDecimals(-0.00001), '0');
    assert.equal(fourDecimals(0.00005), '0.0001');
    assert.equal(fourDecimals(1e-7), '0');
  });
});
