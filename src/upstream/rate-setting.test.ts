import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ConfigError, loadConfig } from '../config.ts';
import { silentLogger } from '../log.ts';
import { nominatim } from './providers/nominatim.ts';
import { parseRateSetting, rateSettingOf } from './rate-setting.ts';
import { createToolServices } from './tool-services.ts';

test("each provider's rate setting is named after its base-URL setting", () => {
  assert.equal(rateSettingOf(nominatim), 'TOOLGATE_NOMINATIM_RATE');
});

test('requests per second, minute or hour, and optionally how many at once', () => {
  const declared = nominatim.rateLimit;
  assert.deepEqual(parseRateSetting('20/s', declared), { rateLimit: { ...declared, requests: 20, perMs: 1_000 } });
  assert.deepEqual(parseRateSetting(' 600 / min , 8 ', declared), { rateLimit: { ...declared, requests: 600, perMs: 60_000, concurrency: 8 } });
  assert.deepEqual(parseRateSetting('5000/h', declared), { rateLimit: { ...declared, requests: 5_000, perMs: 3_600_000 } });
  for (const bad of ['fast', '0/s', '20/day', '20/s,0', '20']) assert.ok('problem' in parseRateSetting(bad, declared), bad);
});

test("an operator's own Nominatim gets its own rate; a malformed one stops the start naming the variable", async () => {
  const config = loadConfig({ TOOLGATE_NOMINATIM_URL: 'http://nominatim.internal:8080', TOOLGATE_NOMINATIM_RATE: '50/s,8' });
  const configured = createToolServices(config, silentLogger);
  const unconfigured = createToolServices(loadConfig({}), silentLogger);
  try {
    const rateOf = (services: typeof configured) => services.upstream.providers.find((p) => p.id === 'nominatim')?.rateLimit;
    assert.deepEqual(rateOf(configured), { ...nominatim.rateLimit, requests: 50, perMs: 1_000, concurrency: 8 });
    assert.deepEqual(rateOf(unconfigured), nominatim.rateLimit, 'unset: the public policy as declared');
  } finally {
    await Promise.all([configured.close(), unconfigured.close()]);
  }
  assert.throws(
    () => loadConfig({ TOOLGATE_NOMINATIM_RATE: 'as fast as it goes' }),
    (error: unknown) => error instanceof ConfigError && error.problems.some((p) => /^TOOLGATE_NOMINATIM_RATE: expected requests per window such as "20\/s"/.test(p)),
  );
});
