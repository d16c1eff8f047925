import assert from 'node:assert/strict';
import { test } from 'node:test';
import { clientKey } from './client-key.ts';

test('a client is an IPv4 address (also written IPv4-mapped) or an IPv6 /64', () => {
  assert.equal(clientKey('203.0.113.7'), '203.0.113.7');
  assert.equal(clientKey('::ffff:203.0.113.7'), '203.0.113.7');
  assert.equal(clientKey('2001:db8:1:2:aaaa::1'), '2001:db8:1:2::/64');
  assert.equal(clientKey('2001:db8:1:2:bbbb::9'), '2001:db8:1:2::/64');
  assert.notEqual(clientKey('2001:db8:1:3::1'), clientKey('2001:db8:1:2::1'));
  assert.equal(clientKey('fe80::1%eth0'), 'fe80::/64');
  assert.equal(clientKey('not an address'), 'not an address');
});
