import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { normalizeDomain } from './domain-name.ts';

describe('normalizeDomain', () => {
  test('a URL gives its host; case and the trailing dot go', () => {
    assert.deepEqual(normalizeDomain('https://WWW.Example.COM/path?q=1'), { ok: true, domain: 'www.example.com' });
    assert.deepEqual(normalizeDomain('Example.com.'), { ok: true, domain: 'example.com' });
    assert.deepEqual(normalizeDomain('example.com/login'), { ok: true, domain: 'example.com' });
    assert.deepEqual(normalizeDomain('example.com:8443'), { ok: true, domain: 'example.com' });
  });

  test('an internationalised name becomes punycode', () => {
    assert.deepEqual(normalizeDomain('bücher.de'), { ok: true, domain: 'xn--bcher-kva.de' });
    assert.deepEqual(normalizeDomain('http://München.de/'), { ok: true, domain: 'xn--mnchen-3ya.de' });
  });

  test('IP addresses, dotless names and other schemes are refused with a reason', () => {
    assert.match(refusal('93.184.216.34'), /is an IP address/);
    assert.match(refusal('http://[2001:db8::1]/'), /is an IP address/);
    assert.match(refusal('localhost'), /has no dot/);
    assert.match(refusal('ftp://example.com/'), /http\(s\) URL/);
    assert.match(refusal('exa_mple.com'), /not a valid domain name/);
    assert.match(refusal('-bad.com'), /not a valid domain name/);
    assert.match(refusal('   '), /expected a domain name/);
  });
});

function refusal(input: string): string {
  const result = normalizeDomain(input);
  assert.equal(result.ok, false);
  return result.ok ? '' : result.message;
}
