import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { baseSymbol, conditionOf, severityOf } from './symbol-codes.ts';

describe('conditionOf', () => {
  test('MET\'s words for a code, whichever variant it comes in', () => {
    assert.deepEqual(conditionOf('partlycloudy_day'), { symbolCode: 'partlycloudy_day', text: 'Partly cloudy' });
    assert.equal(conditionOf('clearsky_polartwilight').text, 'Clear sky');
    assert.equal(conditionOf('rainshowers_night').text, 'Rain showers');
    assert.equal(conditionOf('heavysnowandthunder').text, 'Heavy snow and thunder');
    assert.equal(conditionOf('fog').text, 'Fog');
  });

  test('the legend\'s "lights" spelling, and the corrected one MET has announced', () => {
    assert.equal(conditionOf('lightssleetshowersandthunder_day').text, 'Light sleet showers and thunder');
    assert.equal(conditionOf('lightsnowshowersandthunder_night').text, 'Light snow showers and thunder');
    assert.equal(baseSymbol('lightsleetshowersandthunder_day'), 'lightssleetshowersandthunder');
  });

  test('a code the legend does not list keeps its code and has no words', () => {
    assert.deepEqual(conditionOf('sandstorm_day'), { symbolCode: 'sandstorm_day', text: null });
  });
});

describe('severityOf', () => {
  test('dry skies below precipitation, heavier and thundery above lighter', () => {
    const ordered = ['clearsky_day', 'fair_night', 'partlycloudy_day', 'cloudy', 'fog', 'lightrain', 'rainshowers_day', 'heavysnow', 'lightrainandthunder', 'heavyrainshowersandthunder_day'];
    const ranks = ordered.map(severityOf);
    assert.deepEqual([...ranks].sort((a, b) => a - b), ranks);
    assert.equal(severityOf('lightssnowshowersandthunder_day'), 8);
  });
});
