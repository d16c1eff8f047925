import assert from 'node:assert/strict';
import { test } from 'node:test';
import { chromiumPathFrom, missingExecutableReason } from './chromium-executable.ts';

test('TOOLGATE_CHROMIUM_PATH moves Chromium; /usr/bin/chromium otherwise', () => {
  assert.equal(chromiumPathFrom({}), '/usr/bin/chromium');
  assert.equal(chromiumPathFrom({ TOOLGATE_CHROMIUM_PATH: ' ' }), '/usr/bin/chromium');
  assert.equal(chromiumPathFrom({ TOOLGATE_CHROMIUM_PATH: '/opt/chromium/chrome' }), '/opt/chromium/chrome');
});

test('a missing, non-file or non-executable path is named with a hint', async () => {
  assert.match((await missingExecutableReason('/nowhere/chromium')) ?? '', /^Chromium not found at \/nowhere\/chromium \(set TOOLGATE_CHROMIUM_PATH/);
  assert.match((await missingExecutableReason('/tmp')) ?? '', /not a file/);
  assert.equal(await missingExecutableReason(process.execPath), undefined);
});
