import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { doh, parseDoh, queryDns, txtText } from './doh.ts';
import { failureOf, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';

const signal = new AbortController().signal;
const DNS_JSON = { contentType: 'application/dns-json' };

describe('parseDoh', () => {
  test('reads a validated answer: status, AD flag, records of the asked type, smallest TTL', () => {
    const answer = parseDoh(fixtureResponse('doh', 'unde-pescuim-ro-mx.json', DNS_JSON), 'MX');
    assert.equal(answer.status, 0);
    assert.equal(answer.statusName, 'NOERROR');
    assert.equal(answer.authenticated, true);
    assert.deepEqual(answer.records.map((record) => record.data), ['12 route2.mx.cloudflare.net.', '36 route3.mx.cloudflare.net.', '66 route1.mx.cloudflare.net.']);
    assert.equal(answer.minTtl, 286);
  });

  test('no records of the type is an empty answer, the SOA in Authority gives the TTL', () => {
    const answer = parseDoh(fixtureResponse('doh', 'unde-pescuim-ro-aaaa.json', DNS_JSON), 'AAAA');
    assert.deepEqual(answer.records, []);
    assert.equal(answer.minTtl, 1800);
  });

  test('NXDOMAIN is an answer (Status 3)', () => {
    const answer = parseDoh(fixtureResponse('doh', 'nxdomain.json', DNS_JSON), 'A');
    assert.equal(answer.status, 3);
    assert.equal(answer.statusName, 'NXDOMAIN');
    assert.deepEqual(answer.records, []);
    assert.equal(answer.minTtl, 86400);
  });

  test('SERVFAIL with extended errors keeps the resolver comments', () => {
    const answer = parseDoh(fixtureResponse('doh', 'servfail-rrsig.json', DNS_JSON), 'RRSIG');
    assert.equal(answer.statusName, 'SERVFAIL');
    assert.equal(answer.authenticated, false);
    assert.equal(answer.comments.length, 2);
  });

  test("Google's variant: unquoted TXT data and Comment as a string", () => {
    const answer = parseDoh(fixtureResponse('doh', 'google-unde-pescuim-ro-txt.json', DNS_JSON), 'TXT');
    assert.deepEqual(answer.records.map((record) => txtText(record.data)), ['v=spf1 include:_spf.mx.cloudflare.net ~all']);
    assert.deepEqual(answer.comments, ['Response from 108.162.193.73.']);
  });

  test('malformed JSON (a real 2018 Cloudflare answer), an error object and a non-DNS body are failures', () => {
    assert.match(failureOf(() => parseDoh(fixtureResponse('doh', 'broken-txt-2018.json', DNS_JSON), 'TXT')).message, /^DNS over HTTPS: its answer is not JSON/);
    assert.match(failureOf(() => parseDoh(fixtureResponse('doh', 'error-body.json', DNS_JSON), 'A')).message, /answered with an error \(Invalid query name\)/);
    assert.match(failureOf(() => parseDoh(rawResponse('{"Status":0,"Answer":[{"name":"x"}]}', DNS_JSON), 'A')).message, /lacks name, type, TTL or data/);
    assert.equal(failureOf(() => parseDoh(rawResponse('<html>blocked</html>', { contentType: 'text/html' }), 'A')).status, 502);
  });
});

describe('txtText', () => {
  test('joins quoted character-strings and unescapes quotes', () => {
    assert.equal(txtText('"v=DMARC1; p=none; rua=mailto:contact@unde-pescuim.ro; adkim=s; aspf=s; pct=100"'), 'v=DMARC1; p=none; rua=mailto:contact@unde-pescuim.ro; adkim=s; aspf=s; pct=100');
    assert.equal(txtText('"v=spf1 include:a.example " "-all"'), 'v=spf1 include:a.example -all');
    assert.equal(txtText('"say \\"hi\\""'), 'say "hi"');
  });
});

describe('queryDns', () => {
  test('asks the base URL with name and type, the dns-json accept header, and caches per smallest TTL', async () => {
    const caller = new RecordingCaller(fixtureResponse('doh', 'unde-pescuim-ro-ds.json', DNS_JSON));
    const answer = await queryDns(caller, 'unde-pescuim.ro', 'DS', signal);
    const { provider, request } = caller.only();
    assert.equal(provider, doh);
    assert.equal(request.path, '');
    assert.deepEqual(request.query, { name: 'unde-pescuim.ro', type: 'DS' });
    assert.equal(request.headers?.accept, 'application/dns-json');
    assert.equal(request.freshFor?.(fixtureResponse('doh', 'unde-pescuim-ro-ds.json', DNS_JSON), 0), 86_400_000);
    assert.equal(request.freshFor?.(rawResponse('not json'), 0), undefined);
    assert.equal(answer.value.records[0]!.data, '2371 13 2 111a1861d6dfd0bb619c5200f991982ea806c6d074a8e56ec50ce409dd9f5aa3');
    assert.equal(answer.source.provider, 'doh');
  });
});
