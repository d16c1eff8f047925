// Scopes against the IANA IPv4 and IPv6 special-purpose address registries (RFC 6890 and successors).
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import ipaddr from 'ipaddr.js';
import { classifyAddress, inGlobalUnicastBlock, ipv4CompatibleIPv4, scopeNote } from './address-scope.ts';

describe('classifyAddress', () => {
  const registry: ReadonlyArray<[string, string]> = [
    ['10.255.255.255', 'private'], // 10.0.0.0/8, RFC 1918
    ['172.31.255.255', 'private'], // 172.16.0.0/12
    ['172.32.0.0', 'public'], // just outside 172.16.0.0/12
    ['192.168.0.0', 'private'],
    ['127.255.255.254', 'loopback'], // 127.0.0.0/8
    ['169.254.0.1', 'link-local'],
    ['100.127.255.255', 'carrier-grade-nat'], // 100.64.0.0/10, RFC 6598
    ['100.128.0.0', 'public'],
    ['198.18.0.1', 'reserved'], // benchmarking, RFC 2544
    ['198.51.100.1', 'reserved'], // TEST-NET-2
    ['203.0.113.1', 'reserved'], // TEST-NET-3
    ['240.0.0.1', 'reserved'], // class E
    ['255.255.255.255', 'reserved'], // limited broadcast
    ['239.255.255.250', 'multicast'],
    ['fc00::1', 'private'], // fc00::/7, RFC 4193
    ['fdff:ffff::1', 'private'],
    ['fe80::abcd', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::', 'unspecified'],
    ['2001:db8:ffff::1', 'reserved'], // documentation, RFC 3849
    ['3fff::1', 'reserved'], // documentation, RFC 9637
    ['2001:2::1', 'reserved'], // benchmarking, RFC 5180
    ['2606:4700::1', 'public'],
  ];
  for (const [ip, scope] of registry) {
    test(`${ip} is ${scope}`, () => assert.equal(classifyAddress(ip)?.scope, scope));
  }

  test('IPv4-mapped addresses become IPv4 and keep the text they arrived as', () => {
    const mapped = classifyAddress('::ffff:192.168.1.1');
    assert.deepEqual([mapped?.ip, mapped?.version, mapped?.scope, mapped?.receivedAs], ['192.168.1.1', 4, 'private', '::ffff:192.168.1.1']);
    assert.equal(classifyAddress('::ffff:c0a8:101')?.ip, '192.168.1.1');
  });

  test('a zone index is accepted and dropped', () => {
    assert.deepEqual([classifyAddress('fe80::1%en0')?.ip, classifyAddress('fe80::1%en0')?.scope], ['fe80::1', 'link-local']);
  });

  test('the embedded IPv4 address of 6to4, Teredo and NAT64 addresses (RFC 3056, RFC 4380, RFC 6052 examples)', () => {
    assert.equal(classifyAddress('2002:c000:204::1')?.embeddedIPv4, '192.0.2.4');
    assert.equal(classifyAddress('2001:0:4136:e378:8000:63bf:3fff:fdd2')?.embeddedIPv4, '192.0.2.45');
    assert.equal(classifyAddress('64:ff9b::c000:221')?.embeddedIPv4, '192.0.2.33');
    // The local-use NAT64 prefix may embed at other offsets: not decoded, left as reserved.
    const localUse = classifyAddress('64:ff9b:1::c000:221');
    assert.deepEqual([localUse?.embeddedIPv4, localUse?.scope], [undefined, 'reserved']);
  });

  test('anything but a canonical IPv4 or IPv6 address is refused', () => {
    for (const bad of ['', ' ', 'localhost', '127.1', '0x7f.0.0.1', '1.2.3', '1.2.3.4.5', '256.0.0.1', '::g', '1.2.3.4/24']) {
      assert.equal(classifyAddress(bad), null, JSON.stringify(bad));
    }
  });

  test('a public address has no note; the others explain themselves', () => {
    assert.equal(scopeNote(classifyAddress('8.8.8.8')!), '');
    assert.match(scopeNote(classifyAddress('127.0.0.1')!), /^127\.0\.0\.1 is a loopback address/);
  });
});

describe('IPv6 address space beyond the special ranges', () => {
  const ipv6 = (text: string) => ipaddr.IPv6.parse(text);

  test('only 2000::/3 holds global unicast addresses', () => {
    assert.equal(inGlobalUnicastBlock(ipv6('2606:4700::1')), true);
    assert.equal(inGlobalUnicastBlock(ipv6('3fff:ffff::1')), true);
    assert.equal(inGlobalUnicastBlock(ipv6('::7f00:1')), false);
    assert.equal(inGlobalUnicastBlock(ipv6('4000::1')), false);
  });

  test('the IPv4 address inside an IPv4-compatible address; :: and ::1 are not such addresses', () => {
    assert.equal(ipv4CompatibleIPv4(ipv6('::7f00:1'))?.toString(), '127.0.0.1');
    assert.equal(ipv4CompatibleIPv4(ipv6('::a9fe:a9fe'))?.toString(), '169.254.169.254');
    assert.equal(ipv4CompatibleIPv4(ipv6('::')), null);
    assert.equal(ipv4CompatibleIPv4(ipv6('::1')), null);
    assert.equal(ipv4CompatibleIPv4(ipv6('::ffff:7f00:1')), null);
  });
});
