import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { parseCompactForecast } from '../../../upstream/providers/metno.ts';
import { fixtureResponse } from '../../../upstream/providers/recording-caller.ts';
import { compassPoint } from './current-conditions.ts';
import { summariseForecast } from './forecast-summary.ts';

const JSON_TYPE = { contentType: 'application/json' };
const newYork = parseCompactForecast(fixtureResponse('metno', 'compact-new-york.json', JSON_TYPE));
const beijing = parseCompactForecast(fixtureResponse('metno', 'compact-beijing.json', JSON_TYPE));
/** When MET answered the New York request (its Date header). */
const NEW_YORK_FETCHED = new Date('2020-07-20T11:44:31Z');

describe('summariseForecast: current conditions', () => {
  test('the step at or before now (11:00 UTC at 11:44), read as it stands', () => {
    const { current } = summariseForecast(newYork, 'America/New_York', NEW_YORK_FETCHED);
    assert.deepEqual(current, {
      time: '2020-07-20T11:00:00Z',
      localTime: '2020-07-20T07:00:00-04:00',
      temperature: 26.5,
      // 26.5 °C: above 10 (no wind chill), below 27 (no heat index)
      feelsLike: { value: 26.5, formula: 'air_temperature' },
      windSpeed: 3.8,
      // 3.8 m/s * 3.6 = 13.68 km/h
      windSpeedKmh: 13.7,
      // 243.4 / 22.5 = 10.8 -> point 11 of 16 = WSW
      windFromDirection: 243.4,
      windFromCompass: 'WSW',
      relativeHumidity: 81.3,
      pressureAtSeaLevel: 1010.7,
      cloudCover: 69.5,
      precipitation: { amount: 0, hours: 1 },
      condition: { symbolCode: 'partlycloudy_day', text: 'Partly cloudy' },
    });
  });

  test('a hot afternoon step gets the heat index (35.4 °C, 38.7 %: see feels-like.test.ts)', () => {
    const { current } = summariseForecast(newYork, 'America/New_York', new Date('2020-07-20T18:59:59Z'));
    assert.equal(current.time, '2020-07-20T18:00:00Z');
    assert.deepEqual(current.feelsLike, { value: 37.6, formula: 'heat_index' });
  });

  test('in the 6-hourly part the precipitation is for the next 6 hours, the condition from next_6_hours', () => {
    const { current } = summariseForecast(newYork, 'America/New_York', new Date('2020-07-23T01:00:00Z'));
    assert.equal(current.time, '2020-07-23T00:00:00Z');
    assert.deepEqual(current.precipitation, { amount: 3, hours: 6 });
    assert.deepEqual(current.condition, { symbolCode: 'rainshowers_night', text: 'Rain showers' });
  });

  test('before the first step, the first step', () => {
    assert.equal(summariseForecast(newYork, 'America/New_York', new Date('2020-07-20T09:00:00Z')).current.time, '2020-07-20T11:00:00Z');
  });

  test('compass points are centred on their bearing', () => {
    assert.deepEqual([0, 11.2, 11.3, 357, 180, 359.9, -90].map(compassPoint), ['N', 'N', 'NNE', 'N', 'S', 'N', 'W']);
  });
});

describe('summariseForecast: daily, New York (UTC-4 in July)', () => {
  const summary = summariseForecast(newYork, 'America/New_York', NEW_YORK_FETCHED);

  test('states the zone, units, MET\'s update time and point', () => {
    assert.equal(summary.timeZone, 'America/New_York');
    assert.equal(summary.updatedAt, '2020-07-20T01:30:57Z');
    assert.deepEqual(summary.forecastPoint, { latitude: 40.7, longitude: -74, altitudeM: 10 });
    assert.deepEqual(summary.units, {
      temperature: 'celsius', windSpeed: 'm/s', windSpeedKmh: 'km/h', windFromDirection: 'degrees',
      relativeHumidity: '%', pressureAtSeaLevel: 'hPa', cloudCover: '%', precipitation: 'mm',
    });
    assert.equal(summary.notices, undefined);
  });

  test('five local dates from today', () => {
    assert.deepEqual(summary.daily.map((day) => day.date), ['2020-07-20', '2020-07-21', '2020-07-22', '2020-07-23', '2020-07-24']);
  });

  test('today is partial: 17 hourly steps, 07:00 to 23:00 local (11:00 to 03:00 UTC)', () => {
    // Temperatures 26.5 27.9 29.3 30.8 31.9 32.8 34.0 35.4 35.8 36.0 35.9 35.1 33.7 31.3 29.9 28.9 27.0;
    // wind at most 6.2 (19:00 UTC); 17 hourly periods of 0.0 mm; symbols: partlycloudy 10 h (11-20 UTC)
    // + 3 h (01-03 UTC) = 13, fair 3 h + 1 h = 4.
    assert.deepEqual(summary.daily[0], {
      date: '2020-07-20', points: 17, firstPoint: '07:00', lastPoint: '23:00', hoursCovered: 17, partial: true,
      temperatureMin: 26.5, temperatureMax: 36, precipitationSum: 0, windSpeedMax: 6.2,
      condition: { symbolCode: 'partlycloudy', text: 'Partly cloudy' },
    });
  });

  test('a whole hourly day: 04:00 UTC on the 21st to 03:00 UTC on the 22nd', () => {
    // min 22.4 (10:00 UTC), max 32.2 (18:00 UTC), wind max 6.1 (20:00 UTC);
    // clearsky 1 + 8 + 4 = 13 h, fair 3 + 1 + 1 + 4 = 9 h, partlycloudy 2 h.
    assert.deepEqual(summary.daily[1], {
      date: '2020-07-21', points: 24, firstPoint: '00:00', lastPoint: '23:00', hoursCovered: 24, partial: false,
      temperatureMin: 22.4, temperatureMax: 32.2, precipitationSum: 0, windSpeedMax: 6.1,
      condition: { symbolCode: 'clearsky', text: 'Clear sky' },
    });
  });

  test('the day the series turns 6-hourly: next_1_hours while hourly, then next_6_hours, nothing twice', () => {
    // 14 hourly periods 04-17 UTC of 0.0 mm (the next_6_hours of 0.1 mm at 09-12 UTC overlap them and
    // are not counted), then 18 UTC next_6_hours 0.0 and 00 UTC (20:00 local) next_6_hours 3.0:
    // 0 + 0 + 3.0 = 3.0 mm over 14 + 6 + 6 = 26 h. Temperatures: min 23.7 (09 UTC), max 30.2 (18 UTC).
    // partlycloudy 2 + 1 + 1 + 3 + 6 = 13 h, rainshowers 6, cloudy 4, fair 3.
    assert.deepEqual(summary.daily[2], {
      date: '2020-07-22', points: 16, firstPoint: '00:00', lastPoint: '20:00', hoursCovered: 26, partial: false,
      temperatureMin: 23.7, temperatureMax: 30.2, precipitationSum: 3, windSpeedMax: 3.5,
      condition: { symbolCode: 'partlycloudy', text: 'Partly cloudy' },
    });
  });

  test('6-hourly days: four steps at 02, 08, 14 and 20 local; local grouping differs from UTC grouping', () => {
    // 2020-07-23 local: 06 UTC 24.9 (0.0 fair), 12 UTC 26.4 (0.4 partlycloudy), 18 UTC 31.3 (0.6 lightrainshowers),
    // 00 UTC on the 24th 28.4 (0.0 partlycloudy): 0.0 + 0.4 + 0.6 + 0.0 = 1.0 mm; partlycloudy 12 h.
    assert.deepEqual(summary.daily[3], {
      date: '2020-07-23', points: 4, firstPoint: '02:00', lastPoint: '20:00', hoursCovered: 24, partial: false,
      temperatureMin: 24.9, temperatureMax: 31.3, precipitationSum: 1, windSpeedMax: 3.6,
      condition: { symbolCode: 'partlycloudy', text: 'Partly cloudy' },
    });
    // 2020-07-24 local: 25.6, 25.4, 27.7 and 24.1 (00 UTC on the 25th) -> min 24.1, max 27.7.
    // By UTC date it would be 28.4, 25.6, 25.4, 27.7 -> min 25.4, max 28.4.
    // 0.1 + 2.6 + 0.9 + 0.0 = 3.6 mm; partlycloudy 12 h, rain 6, lightrainshowers 6.
    assert.deepEqual(summary.daily[4], {
      date: '2020-07-24', points: 4, firstPoint: '02:00', lastPoint: '20:00', hoursCovered: 24, partial: false,
      temperatureMin: 24.1, temperatureMax: 27.7, precipitationSum: 3.6, windSpeedMax: 4.4,
      condition: { symbolCode: 'partlycloudy', text: 'Partly cloudy' },
    });
  });

  test('the last day holds the final step, which has no period: partial', () => {
    const late = summariseForecast(newYork, 'America/New_York', new Date('2020-07-28T12:00:00Z'));
    assert.deepEqual(late.daily.map((day) => day.date), ['2020-07-28', '2020-07-29']);
    // 2020-07-29 local: only 06 UTC (02:00), 24.7 °C, no next_1/6_hours.
    assert.deepEqual(late.daily[1], {
      date: '2020-07-29', points: 1, firstPoint: '02:00', lastPoint: '02:00', hoursCovered: 0, partial: true,
      temperatureMin: 24.7, temperatureMax: 24.7, precipitationSum: null, windSpeedMax: 3.1, condition: null,
    });
  });
});

describe('summariseForecast: daily, Beijing (UTC+8), far from UTC', () => {
  const summary = summariseForecast(beijing, 'Asia/Shanghai', new Date('2020-07-20T11:20:44Z'));

  test('today holds only the evening: 19:00 to 23:00 local (11 to 15 UTC)', () => {
    // 30.4 28.2 27.7 27.3 27.1
    const [today] = summary.daily;
    assert.deepEqual([today?.date, today?.points, today?.firstPoint, today?.lastPoint, today?.partial], ['2020-07-20', 5, '19:00', '23:00', true]);
    assert.deepEqual([today?.temperatureMin, today?.temperatureMax], [27.1, 30.4]);
  });

  test("a local day runs 16:00 UTC to 15:00 UTC, so its minimum is the early morning's", () => {
    // 2020-07-21 local = 16 UTC on the 20th .. 15 UTC on the 21st: 26.6 26.0 25.4 25.0 24.4 23.8 24.1 25.3
    // 26.5 27.4 29.0 30.5 31.7 32.6 33.4 33.8 33.8 33.7 33.0 31.0 29.3 28.5 27.5 26.4 -> min 23.8, max 33.8.
    // By UTC date the 21st would run on to 21 UTC (05:00 on the 22nd local) and give min 21.4.
    const day = summary.daily[1];
    assert.deepEqual([day?.date, day?.points, day?.temperatureMin, day?.temperatureMax], ['2020-07-21', 24, 23.8, 33.8]);
  });

  test('the turn to 6-hourly, and a 6-hourly day at 02, 08, 14 and 20 local', () => {
    // 2020-07-23 local: the last hourly steps 16 and 17 UTC on the 22nd (23.5, 22.8), then 18 UTC 22.6,
    // 00 UTC 24.3, 06 UTC 32.4, 12 UTC 28.4 -> 6 points, min 22.6, max 32.4
    // (by UTC date: 24.3, 32.4, 28.4, 23.4 -> min 23.4).
    const turn = summary.daily[3];
    assert.deepEqual([turn?.date, turn?.points, turn?.firstPoint, turn?.lastPoint, turn?.temperatureMin, turn?.temperatureMax], ['2020-07-23', 6, '00:00', '20:00', 22.6, 32.4]);
    // 2020-07-24 local: 18 UTC on the 23rd 23.4, 00 UTC 27.2, 06 UTC 36.5, 12 UTC 31.4 -> min 23.4, max 36.5
    // (by UTC date: 27.2, 36.5, 31.4, 24.8 -> min 24.8).
    const sixHourly = summary.daily[4];
    assert.deepEqual(
      [sixHourly?.date, sixHourly?.points, sixHourly?.firstPoint, sixHourly?.lastPoint, sixHourly?.hoursCovered, sixHourly?.temperatureMin, sixHourly?.temperatureMax],
      ['2020-07-24', 4, '02:00', '20:00', 24, 23.4, 36.5],
    );
  });
});

describe('summariseForecast: a deprecated product version', () => {
  test('HTTP 203 data is summarised with a notice', () => {
    const deprecated = parseCompactForecast(fixtureResponse('metno', 'compact-new-york.json', { status: 203, contentType: 'application/json' }));
    const summary = summariseForecast(deprecated, 'America/New_York', NEW_YORK_FETCHED);
    assert.equal(summary.daily.length, 5);
    assert.match(summary.notices?.[0] ?? '', /HTTP 203.*deprecated/);
  });
});
