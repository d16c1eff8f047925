import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { feelsLike, heatIndex, windChill } from './feels-like.ts';

describe('windChill', () => {
  test('the index at -10 °C and 20 km/h', () => {
    // 20^0.16 = e^(0.16 ln 20) = e^0.479317 = 1.614929
    // 13.12 + 0.6215(-10) - 11.37(1.614929) + 0.3965(-10)(1.614929) = 13.12 - 6.215 - 18.361743 - 6.403193 = -17.8599
    assert.equal(Math.round(windChill(-10, 20) * 100) / 100, -17.86);
  });

  test('the index at 2 °C and 7 km/h', () => {
    // 7^0.16 = e^(0.16 ln 7) = e^0.311346 = 1.365279; 13.12 + 1.243 - 15.523222 + 1.082666 = -0.0776
    assert.equal(Math.round(windChill(2, 7) * 100) / 100, -0.08);
  });
});

describe('heatIndex', () => {
  test('Rothfusz at 35.4 °C and 38.7 % (New York, 2020-07-20 18:00 UTC in the fixture)', () => {
    // T = 35.4 * 1.8 + 32 = 95.72 °F; simple = 0.5 (95.72 + 61 + 27.72 * 1.2 + 38.7 * 0.094) = 96.81,
    // averaged with T: 96.27 >= 80, so the regression:
    //   -42.379 + 196.131738 + 392.546920 - 832.575850 - 62.650376 - 82.099127
    //   + 435.688745 + 122.259326 - 27.307402 = 99.6150 °F (RH between 13 and 85: no adjustment)
    // (99.6150 - 32) / 1.8 = 37.564 °C
    assert.equal(Math.round(heatIndex(35.4, 38.7) * 100) / 100, 37.56);
  });

  test('below 80 °F averaged, the simple formula averaged with T', () => {
    // T = 80.6 °F, RH 20: simple = 0.5 (80.6 + 61 + 12.6 * 1.2 + 1.88) = 79.3; (79.3 + 80.6) / 2 = 79.95 °F = 26.639 °C
    assert.equal(Math.round(heatIndex(27, 20) * 1000) / 1000, 26.639);
  });

  test('the dry-air adjustment below 13 % humidity', () => {
    // T = 104 °F (40 °C), RH 10: regression = -42.379 + 213.097584 + 101.433313 - 233.745626 - 73.957969
    //   - 5.481717 + 132.900518 + 8.869328 - 2.152384 = 98.584046;
    // adjustment = (13 - 10) / 4 * sqrt((17 - 9) / 17) = 0.75 * 0.685994 = 0.514496; 98.069551 °F = 36.705 °C
    assert.equal(Math.round(heatIndex(40, 10) * 1000) / 1000, 36.705);
  });
});

describe('feelsLike', () => {
  test('chooses the formula by temperature and wind, and says which', () => {
    assert.deepEqual(feelsLike(-10, 20 / 3.6, 50), { value: -17.9, formula: 'wind_chill' });
    assert.deepEqual(feelsLike(35.4, 5.6, 38.7), { value: 37.6, formula: 'heat_index' });
    assert.deepEqual(feelsLike(26.5, 3.8, 81.3), { value: 26.5, formula: 'air_temperature' });
  });

  test('no wind chill in calm air (4.8 km/h or less), none above 10 °C; no heat index without humidity', () => {
    assert.deepEqual(feelsLike(5, 4.8 / 3.6, 50), { value: 5, formula: 'air_temperature' });
    assert.deepEqual(feelsLike(10.1, 10, 50), { value: 10.1, formula: 'air_temperature' });
    assert.deepEqual(feelsLike(30, 2, undefined), { value: 30, formula: 'air_temperature' });
  });
});
