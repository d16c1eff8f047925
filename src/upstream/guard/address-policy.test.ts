// The address rules of the SSRF guard, without any network: what is public, what the allow list opens.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { forbiddenAddress, parseAllowList } from './address-policy.ts';

describe('forbiddenAddress', () => {
  test('public unicast addresses pass', () => {
    for (const ip of ['8.8.8.8', '93.184.215.14', '1.1.1.1', '2606:4700::1111', '2a00:1450:4001::200e', '64:ff9b::808:808', '::ffff:8.8.8.8', '2002:808:808::1']) {
      assert.equal(forbiddenAddress(ip), null, ip);
    }
  });

  test('every other kind is named', () => {
    const reasons: ReadonlyArray<[string, string]> = [
      ['127.0.0.1', 'loopback address 127.0.0.1'],
      ['10.1.2.3', 'private address 10.1.2.3'],
      ['169.254.169.254', 'cloud metadata address 169.254.169.254'],
      ['169.254.1.1', 'link-local address 169.254.1.1'],
      ['100.64.0.1', 'carrier-grade NAT address 100.64.0.1'],
      ['224.0.0.251', 'multicast address 224.0.0.251'],
      ['255.255.255.255', 'broadcast address 255.255.255.255'],
      ['0.0.0.0', 'unspecified address 0.0.0.0'],
      ['0.255.0.1', 'unspecified address 0.255.0.1'],
      ['198.19.0.1', 'benchmarking address 198.19.0.1'],
      ['203.0.113.9', 'documentation address 203.0.113.9'],
      ['240.1.2.3', 'reserved address 240.1.2.3'],
      ['::1', 'loopback address ::1'],
      ['::', 'unspecified address ::'],
      ['fe80::1', 'link-local address fe80::1'],
      ['fd12::1', 'private (unique local) address fd12::1'],
      ['fd00:ec2::254', 'cloud metadata address fd00:ec2::254'],
      ['ff02::1', 'multicast address ff02::1'],
      ['2001:db8::1', 'documentation address 2001:db8::1'],
      ['4000::1', 'unassigned address (outside 2000::/3) 4000::1'],
      ['::ffff:127.0.0.1', 'loopback address 127.0.0.1 inside IPv4-mapped address ::ffff:7f00:1'],
      ['::ffff:a9fe:a9fe', 'cloud metadata address 169.254.169.254 inside IPv4-mapped address ::ffff:a9fe:a9fe'],
      ['64:ff9b::a00:1', 'private address 10.0.0.1 inside NAT64 address 64:ff9b::a00:1'],
      ['64:ff9b:1::a00:1', 'NAT64 local-use address 64:ff9b:1::a00:1'],
      ['2002:7f00:1::', 'loopback address 127.0.0.1 inside 6to4 address 2002:7f00:1::'],
      ['2001:0:4136:e378:8000:63bf:80ff:fffe', 'loopback address 127.0.0.1 inside Teredo address 2001:0:4136:e378:8000:63bf:80ff:fffe'],
      ['::7f00:1', 'loopback address 127.0.0.1 inside IPv4-compatible address ::7f00:1'],
      ['::808:808', 'deprecated IPv4-compatible address ::808:808'],
      ['127.1', 'malformed address 127.1'],
    ];
    for (const [ip, reason] of reasons) assert.equal(forbiddenAddress(ip), reason, ip);
  });

  test('the allow list opens exactly what it names, after unmapping IPv4-mapped forms', () => {
    const allow = parseAllowList(['127.0.0.1', '10.8.0.0/16', 'fd00::/8']);
    assert.equal(forbiddenAddress('127.0.0.1', allow), null);
    assert.equal(forbiddenAddress('::ffff:127.0.0.1', allow), null);
    assert.equal(forbiddenAddress('127.0.0.2', allow), 'loopback address 127.0.0.2');
    assert.equal(forbiddenAddress('10.8.255.255', allow), null);
    assert.equal(forbiddenAddress('10.9.0.0', allow), 'private address 10.9.0.0');
    assert.equal(forbiddenAddress('fd12::1', allow), null);
    assert.equal(forbiddenAddress('fc00::1', allow), 'private (unique local) address fc00::1');
    // Other carriers of an allowed IPv4 address are not opened by it.
    assert.match(forbiddenAddress('64:ff9b::7f00:1', allow) ?? '', /^loopback address 127\.0\.0\.1 inside NAT64/);
    // An IPv4-mapped entry names its IPv4 block.
    assert.equal(forbiddenAddress('192.168.1.7', parseAllowList(['::ffff:192.168.1.0/120'])), null);
  });
});

describe('parseAllowList', () => {
  test('addresses are one-address blocks; CIDRs keep their prefix', () => {
    assert.deepEqual(
      parseAllowList(['127.0.0.1', '127.0.0.0/8', '::1', '2001:db8::/32']).map(({ block }) => [block[0].toString(), block[1]]),
      [['127.0.0.1', 32], ['127.0.0.0', 8], ['::1', 128], ['2001:db8::', 32]],
    );
  });

  test('a bad entry is named in the error', () => {
    for (const bad of ['localhost', '127.1', '10.0.0.0/33', '::1/129', '10.0.0.0/', '10.0.0.0/8/8', '10.0.0.0/-1', '10.0.0.0/0x8', '']) {
      assert.throws(() => parseAllowList(['127.0.0.1/32', bad]), (error: Error) => error.message.includes(`"${bad}"`), bad);
    }
  });
});
