import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gazetteer } from './gazetteer.ts';
import { parseLocationText } from './location-text.ts';
import { resolvePlaceName } from './resolve-place.ts';
import { regions } from './regions.ts';

const resolve = (text: string) => {
  const parsed = parseLocationText(text);
  assert.ok('kind' in parsed && parsed.kind === 'name', `expected a name: ${text}`);
  return resolvePlaceName(gazetteer(), parsed.name, parsed.qualifiers);
};

describe('place names, offline', () => {
  test('population breaks ties: "Paris" is the capital of France, and the other Parises are listed', () => {
    const found = resolve('Paris');
    assert.equal(found?.place.countryCode, 'FR');
    assert.equal(found?.place.featureCode, 'PPLC');
    assert.ok((found?.matches ?? 0) > 5);
    assert.ok(found?.alternatives.some((p) => p.countryCode === 'US' && p.adminCode === 'TX'));
    const populations = [found!.place, ...found!.alternatives].map((p) => p.population);
    assert.deepEqual(populations, [...populations].sort((a, b) => b - a));
  });

  test('a US state (abbreviation or name), a country code or a country name narrows the name', () => {
    for (const text of ['Paris, TX', 'Paris, Texas', 'paris , tx']) {
      const found = resolve(text);
      assert.equal(found?.place.countryCode, 'US', text);
      assert.equal(found?.place.adminCode, 'TX', text);
      assert.equal(found?.matches, 1, text);
    }
    assert.equal(resolve('Zürich, CH')?.place.countryCode, 'CH');
    assert.equal(resolve('Zurich, Switzerland')?.place.name, 'Zürich');
    assert.equal(resolve('Sydney, Nova Scotia')?.place.countryCode, 'CA');
    assert.equal(resolve('Sydney, NSW')?.place.countryCode, 'AU');
    assert.equal(resolve('Perth, Scotland')?.place.adminCode, 'SCT');
    assert.equal(resolve('Portland, Maine, USA')?.place.adminCode, 'ME');
  });

  test('accents, case and a dropped "City" do not matter', () => {
    assert.equal(resolve('OSLO')?.place.countryCode, 'NO');
    assert.equal(resolve('zurich')?.place.name, 'Zürich');
    assert.equal(resolve('New York')?.place.name, 'New York City');
  });

  test('an unknown name, or a qualifier the gazetteer cannot read, is left to the online geocoder', () => {
    assert.equal(resolve('Xyzzyville'), undefined);
    assert.equal(resolve('Springfield, Sangamon County'), undefined);
    assert.equal(resolve('Paris, Atlantis'), undefined);
  });

  test("the regions table's GeoNames codes hold: each region's capital is filed under its code", () => {
    const capitals: Record<string, string> = { 'CA.08': 'Toronto', 'CA.02': 'Victoria', 'CA.10': 'Québec', 'AU.02': 'Sydney', 'AU.07': 'Melbourne', 'AU.08': 'Perth', 'GB.SCT': 'Edinburgh', 'GB.WLS': 'Cardiff', 'US.TX': 'Austin' };
    for (const [key, capital] of Object.entries(capitals)) {
      const [country, adminCode] = key.split('.');
      assert.ok(regions.some((r) => r.country === country && r.adminCode === adminCode), key);
      assert.ok(gazetteer().named(capital).some((p) => p.countryCode === country && p.adminCode === adminCode), `${capital} under ${key}`);
    }
  });
});

describe('location text', () => {
  test('"lat,lon" is coordinates; out of range is a problem naming which; a name keeps its qualifiers', () => {
    assert.deepEqual(parseLocationText(' 59.9139, 10.7522 '), { kind: 'coordinates', latitude: 59.9139, longitude: 10.7522 });
    assert.deepEqual(parseLocationText('-33.86,151.2'), { kind: 'coordinates', latitude: -33.86, longitude: 151.2 });
    assert.match((parseLocationText('95,10') as { problem: string }).problem, /latitude 95 is outside -90\.\.90/);
    assert.match((parseLocationText('45,190') as { problem: string }).problem, /longitude 190 is outside/);
    assert.deepEqual(parseLocationText('Paris, TX'), { kind: 'name', name: 'Paris', qualifiers: ['TX'] });
    assert.ok('problem' in parseLocationText('12345'));
  });
});

describe('the nearest populated place', () => {
  test('near the Eiffel Tower it is a place within a few km (Neuilly-sur-Seine, 3.4 km: nearer than the point GeoNames gives Paris)', () => {
    const near = gazetteer().nearest(48.8584, 2.2945);
    assert.ok(near);
    assert.equal(near.place.name, 'Neuilly-sur-Seine');
    assert.ok(near.distanceKm > 3 && near.distanceKm < 4, String(near.distanceKm));
  });

  test('mid-Atlantic it is still found, far away; across the date line too', () => {
    const sea = gazetteer().nearest(30, -40);
    assert.ok(sea && sea.distanceKm > 500);
    const fiji = gazetteer().nearest(-16.5, 179.99);
    assert.equal(fiji?.place.countryCode, 'FJ');
  });

  test('agrees with a brute-force search on land, at sea, near the poles and across the date line', () => {
    const all = gazetteer().places;
    let seed = 42;
    const random = () => ((seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31);
    const scattered = Array.from({ length: 60 }, () => [random() * 180 - 90, random() * 360 - 180] as const);
    for (const [lat, lon] of [[64.1, -21.9], [-54.8, -68.3], [78.2, 15.6], [1.3, 103.8], [-41.3, 174.8], [89.9, 0], [-89.9, 45], [0, 180], ...scattered] as const) {
      const fast = gazetteer().nearest(lat, lon);
      let best = Infinity;
      for (const p of all) best = Math.min(best, haversine(lat, lon, p.latitude, p.longitude));
      assert.ok(fast && Math.abs(fast.distanceKm - best) < 1e-6, `${lat},${lon}: ${fast?.distanceKm} vs ${best}`);
    }
  });
});

function haversine(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const h = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(h));
}
