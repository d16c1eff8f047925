import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { CLOUD_REGIONS, nearestCloudRegions } from './cloud-regions.ts';
import { EARTH_MEAN_RADIUS_KM, greatCircleKm } from './great-circle.ts';

describe('greatCircleKm', () => {
  // Hand-checked on a sphere of radius R: a quarter meridian is πR/2, antipodes πR, 1° of arc πR/180.
  test('a quarter meridian, antipodes and one degree of arc', () => {
    assert.ok(Math.abs(greatCircleKm(0, 0, 90, 0) - (Math.PI * EARTH_MEAN_RADIUS_KM) / 2) < 1e-6);
    assert.ok(Math.abs(greatCircleKm(0, 0, 0, 180) - Math.PI * EARTH_MEAN_RADIUS_KM) < 1e-6);
    // Haversine is ill-conditioned right at the antipodes: still within a metre.
    assert.ok(Math.abs(greatCircleKm(10, 20, -10, -160) - Math.PI * EARTH_MEAN_RADIUS_KM) < 1e-3);
    assert.ok(Math.abs(greatCircleKm(0, 0, 0, 1) - 111.195) < 0.001);
    assert.equal(greatCircleKm(45, 7, 45, 7), 0);
  });

  test('JFK to LHR is 3,451 mi, 5,554 km (Great Circle Mapper, on the ellipsoid), within the sphere\'s 0.5%', () => {
    // JFK 40°38'23"N 73°46'44"W, LHR 51°28'39"N 0°27'41"W.
    const km = greatCircleKm(40 + 38 / 60 + 23 / 3600, -(73 + 46 / 60 + 44 / 3600), 51 + 28 / 60 + 39 / 3600, -(27 / 60 + 41 / 3600));
    assert.ok(Math.abs(km - 3451 * 1.609344) / (3451 * 1.609344) < 0.005, `${km} km`);
  });

  test('is symmetric and crosses the antimeridian the short way', () => {
    assert.equal(greatCircleKm(1, 2, 3, 4), greatCircleKm(3, 4, 1, 2));
    assert.ok(Math.abs(greatCircleKm(0, 179.5, 0, -179.5) - 111.195) < 0.001);
  });
});

describe('the cloud region table', () => {
  test('names each region once per provider, with coordinates on Earth', () => {
    const keys = CLOUD_REGIONS.map((r) => `${r.provider}/${r.region}`);
    assert.equal(new Set(keys).size, keys.length);
    for (const region of CLOUD_REGIONS) {
      assert.ok(Math.abs(region.latitude) <= 90 && Math.abs(region.longitude) <= 180, region.region);
    }
    for (const provider of ['aws', 'gcp', 'azure']) assert.ok(CLOUD_REGIONS.filter((r) => r.provider === provider).length >= 30, provider);
  });

  test('the well-known regions sit where their providers say (within 60 km of the named city)', () => {
    const cities: ReadonlyArray<[string, string, number, number]> = [
      ['aws', 'eu-central-1', 50.1109, 8.6821], // Frankfurt
      ['aws', 'ap-northeast-1', 35.6762, 139.6503], // Tokyo
      ['gcp', 'europe-west2', 51.5072, -0.1276], // London
      ['gcp', 'southamerica-east1', -23.5558, -46.6396], // São Paulo
      ['azure', 'westeurope', 52.3676, 4.9041], // Amsterdam
      ['azure', 'southeastasia', 1.3521, 103.8198], // Singapore
    ];
    for (const [provider, name, latitude, longitude] of cities) {
      const region = CLOUD_REGIONS.find((r) => r.provider === provider && r.region === name);
      assert.ok(region, `${provider}/${name}`);
      assert.ok(greatCircleKm(latitude, longitude, region.latitude, region.longitude) < 60, `${provider}/${name}`);
    }
  });
});

describe('nearestCloudRegions', () => {
  test('from central Tokyo: the three Tokyo regions, a few km away', () => {
    const nearest = nearestCloudRegions(35.6895, 139.6917);
    assert.deepEqual(nearest.map((r) => r.region), ['ap-northeast-1', 'asia-northeast1', 'japaneast']);
    assert.ok(nearest.every((r) => r.distanceKm < 10));
  });

  test('from Reykjavik: Dublin for AWS and Azure, and GCP\'s nearest is London (1,895 km on the sphere, hand-checked)', () => {
    const nearest = nearestCloudRegions(64.1466, -21.9426);
    assert.equal(nearest.find((r) => r.provider === 'aws')?.region, 'eu-west-1');
    assert.equal(nearest.find((r) => r.provider === 'azure')?.region, 'northeurope');
    const gcp = nearest.find((r) => r.provider === 'gcp');
    assert.equal(gcp?.region, 'europe-west2');
    assert.ok(Math.abs((gcp?.distanceKm ?? 0) - 1895) < 15, `${gcp?.distanceKm}`);
  });

  test('distances are whole kilometres, sorted; ties keep aws, gcp, azure', () => {
    const nearest = nearestCloudRegions(50.11, 8.68);
    assert.deepEqual(nearest.map((r) => [r.provider, r.distanceKm]), [['aws', 0], ['gcp', 0], ['azure', 0]]);
  });
});
