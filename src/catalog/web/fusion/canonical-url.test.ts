import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { canonicalUrl } from './canonical-url.ts';

describe('canonicalUrl', () => {
  test('lower-cases scheme and host, and makes http https', () => {
    assert.equal(canonicalUrl('HTTP://Example.COM/Path'), 'https://example.com/Path');
  });

  test('drops www., default ports and the fragment', () => {
    assert.equal(canonicalUrl('https://www.example.com:443/a#section'), 'https://example.com/a');
    assert.equal(canonicalUrl('http://www.example.com:80/a'), 'https://example.com/a');
    assert.equal(canonicalUrl('http://example.com:443/a'), 'https://example.com/a');
  });

  test('keeps a port that is not a default one', () => {
    assert.equal(canonicalUrl('http://example.com:8080/a'), 'https://example.com:8080/a');
  });

  test('drops tracking parameters, whatever their case', () => {
    assert.equal(
      canonicalUrl('https://example.com/a?utm_source=x&UTM_Medium=y&gclid=1&fbclid=2&mc_cid=3&mc_eid=4&ref=hn&ref_src=twsrc&igshid=5&id=7'),
      'https://example.com/a?id=7',
    );
  });

  test('sorts the parameters that remain, by name then value', () => {
    assert.equal(canonicalUrl('https://example.com/s?q=b&a=2&q=a&a=1'), 'https://example.com/s?a=1&a=2&q=a&q=b');
  });

  test('drops a query left empty', () => {
    assert.equal(canonicalUrl('https://example.com/a?utm_campaign=z'), 'https://example.com/a');
    assert.equal(canonicalUrl('https://example.com/a?'), 'https://example.com/a');
  });

  test('removes trailing slashes except the root', () => {
    assert.equal(canonicalUrl('https://example.com/docs/'), 'https://example.com/docs');
    assert.equal(canonicalUrl('https://example.com/docs//'), 'https://example.com/docs');
    assert.equal(canonicalUrl('https://example.com/'), 'https://example.com/');
    assert.equal(canonicalUrl('https://example.com'), 'https://example.com/');
  });

  test('the forms of one page meet in one key', () => {
    const forms = [
      'http://www.example.org/guide/?utm_source=newsletter#intro',
      'https://example.org/guide',
      'HTTPS://EXAMPLE.ORG:443/guide/',
      'https://www.example.org/guide?fbclid=abc',
    ];
    assert.equal(new Set(forms.map(canonicalUrl)).size, 1);
  });

  test('keeps what tells pages apart: path case, other hosts, meaningful parameters', () => {
    assert.notEqual(canonicalUrl('https://example.com/A'), canonicalUrl('https://example.com/a'));
    assert.notEqual(canonicalUrl('https://docs.example.com/a'), canonicalUrl('https://example.com/a'));
    assert.notEqual(canonicalUrl('https://example.com/a?id=1'), canonicalUrl('https://example.com/a?id=2'));
    // Only a leading "www." is dropped.
    assert.equal(canonicalUrl('https://www2.example.com/'), 'https://www2.example.com/');
  });

  test('encodes the remaining query one way', () => {
    assert.equal(canonicalUrl('https://example.com/s?q=a%20b'), canonicalUrl('https://example.com/s?q=a+b'));
  });

  test('leaves what is not an http(s) URL as it was, trimmed', () => {
    assert.equal(canonicalUrl('  not a url '), 'not a url');
    assert.equal(canonicalUrl('mailto:someone@example.com'), 'mailto:someone@example.com');
  });
});
