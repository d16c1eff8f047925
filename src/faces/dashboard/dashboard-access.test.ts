// The dashboard's access rules, one case per rule (see docs/dashboard.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { AccessRequest } from './dashboard-access.ts';
import { dashboardAccess, isLoopbackIp, tokensMatch } from './dashboard-access.ts';

const token = 'a-long-dashboard-token-0123456789';
const fromLoopback: AccessRequest = { authorization: undefined, ip: '127.0.0.1', host: '127.0.0.1:4021', origin: undefined };
const fromOutside: AccessRequest = { authorization: undefined, ip: '203.0.113.7', host: 'gateway.example', origin: undefined };

test('the right bearer token opens the detailed view, on any network and from anywhere', () => {
  for (const network of ['local', 'base-sepolia', 'base'] as const) {
    assert.deepEqual(dashboardAccess({ token, network }, { ...fromOutside, authorization: `Bearer ${token}` }), { level: 'detailed', via: 'token' });
  }
  assert.equal(dashboardAccess({ token, network: 'base' }, { ...fromOutside, authorization: `bearer  ${token}` }).level, 'detailed');
});

test('a configured token that is not presented never opens the detail, not even from loopback on local', () => {
  assert.equal(dashboardAccess({ token, network: 'local' }, fromLoopback).level, 'public');
  assert.equal(dashboardAccess({ token, network: 'base' }, fromOutside).level, 'public');
});

test('a wrong, malformed or unconfigured token is refused, not downgraded', () => {
  assert.equal(dashboardAccess({ token, network: 'base' }, { ...fromOutside, authorization: `Bearer ${token}x` }).level, 'refused');
  assert.equal(dashboardAccess({ token, network: 'base' }, { ...fromOutside, authorization: `Bearer ${token.slice(0, -1)}` }).level, 'refused');
  assert.equal(dashboardAccess({ token, network: 'base' }, { ...fromOutside, authorization: token }).level, 'refused');
  assert.equal(dashboardAccess({ token, network: 'base' }, { ...fromOutside, authorization: `Basic ${btoa(`x:${token}`)}` }).level, 'refused');
  assert.equal(dashboardAccess({ token: undefined, network: 'local' }, { ...fromLoopback, authorization: `Bearer ${token}` }).level, 'refused');
});

test('without a token: open on local to loopback callers at a loopback Host', () => {
  const policy = { token: undefined, network: 'local' as const };
  assert.deepEqual(dashboardAccess(policy, fromLoopback), { level: 'detailed', via: 'loopback' });
  assert.equal(dashboardAccess(policy, { ...fromLoopback, ip: '::1', host: '[::1]:4021' }).level, 'detailed');
  assert.equal(dashboardAccess(policy, { ...fromLoopback, ip: '::ffff:127.0.0.1', host: 'localhost:4021' }).level, 'detailed');
  assert.equal(dashboardAccess(policy, { ...fromLoopback, origin: 'http://localhost:4021' }).level, 'detailed');
});

test('without a token on local: public for other callers, other Hosts (DNS rebinding) and foreign browser Origins', () => {
  const policy = { token: undefined, network: 'local' as const };
  assert.equal(dashboardAccess(policy, { ...fromLoopback, ip: '192.168.1.20' }).level, 'public');
  assert.equal(dashboardAccess(policy, { ...fromLoopback, host: 'attacker.example:4021' }).level, 'public');
  assert.equal(dashboardAccess(policy, { ...fromLoopback, host: undefined }).level, 'public');
  assert.equal(dashboardAccess(policy, { ...fromLoopback, origin: 'https://attacker.example' }).level, 'public');
  assert.equal(dashboardAccess(policy, { ...fromLoopback, origin: 'null' }).level, 'public');
});

test('without a token on a public network: public, even from loopback', () => {
  assert.equal(dashboardAccess({ token: undefined, network: 'base' }, fromLoopback).level, 'public');
  assert.equal(dashboardAccess({ token: undefined, network: 'base-sepolia' }, fromLoopback).level, 'public');
});

test('loopback addresses', () => {
  for (const ip of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) assert.equal(isLoopbackIp(ip), true, ip);
  for (const ip of ['10.0.0.1', '::ffff:10.0.0.1', '128.0.0.1', '::2', '0.0.0.0', '1127.0.0.1']) assert.equal(isLoopbackIp(ip), false, ip);
});

test('token comparison: equal only when equal, whatever the lengths', () => {
  assert.equal(tokensMatch(token, token), true);
  assert.equal(tokensMatch('', token), false);
  assert.equal(tokensMatch(`${token}${token}`, token), false);
  assert.equal(tokensMatch(token.toUpperCase(), token), false);
});
