import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { lookupRdapDomain, parseRdapDomain, rdap } from './rdap.ts';
import { failureOf, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';

const signal = new AbortController().signal;
const RDAP_JSON = { contentType: 'application/rdap+json' };

describe('parseRdapDomain', () => {
  test("Verisign's example.com: registrar with IANA ID, dates, status, signed delegation", () => {
    assert.deepEqual(parseRdapDomain(fixtureResponse('rdap', 'example-com.json', RDAP_JSON)), {
      found: true,
      name: 'example.com',
      registrar: { name: 'RESERVED-Internet Assigned Numbers Authority', ianaId: '376' },
      registered: '1995-08-14T04:00:00.000Z',
      expires: '2025-08-13T04:00:00.000Z',
      lastChanged: '2024-08-14T07:01:34.000Z',
      status: ['client delete prohibited', 'client transfer prohibited', 'client update prohibited'],
      delegationSigned: true,
    });
  });

  test('AFNIC lemonde.fr: a registrar that is also sponsor, no secureDNS', () => {
    const registration = parseRdapDomain(fixtureResponse('rdap', 'lemonde-fr.json', RDAP_JSON));
    assert.ok(registration.found);
    assert.deepEqual(registration.registrar, { name: 'NAMESHIELD', ianaId: '1251' });
    assert.equal(registration.registered, '2005-08-02T14:16:36.000Z');
    assert.equal(registration.expires, '2025-06-09T22:08:09.000Z');
    assert.equal(registration.delegationSigned, null);
  });

  test('microsoft.click: a registrar without publicIds, milliseconds in the dates', () => {
    const registration = parseRdapDomain(fixtureResponse('rdap', 'microsoft-click.json', RDAP_JSON));
    assert.ok(registration.found);
    assert.deepEqual(registration.registrar, { name: 'MarkMonitor Inc.', ianaId: null });
    assert.equal(registration.registered, '2014-11-12T19:15:55.283Z');
    assert.equal(registration.delegationSigned, false);
  });

  test('404 is an answer: not found, with the error object\'s words', () => {
    assert.deepEqual(parseRdapDomain(fixtureResponse('rdap', 'not-found.json', { ...RDAP_JSON, status: 404 })), {
      found: false,
      reason: 'the RDAP service holds no record of this domain (Not Found: The domain name you asked for is not registered here.)',
    });
    assert.deepEqual(parseRdapDomain(rawResponse('', { status: 404 })), { found: false, reason: 'the RDAP service holds no record of this domain' });
  });

  test('an error object delivered with 200, and bodies that are not a domain object, are failures', () => {
    const error = failureOf(() => parseRdapDomain(fixtureResponse('rdap', 'error-ripe-501.json', RDAP_JSON)));
    assert.equal(error.status, 502);
    assert.match(error.message, /^RDAP: it answered with an error \(501 Not Implemented: Nameserver not supported\)/);
    assert.match(failureOf(() => parseRdapDomain(rawResponse('{"objectClassName":"entity"}', RDAP_JSON))).message, /not an RDAP domain object/);
    assert.match(failureOf(() => parseRdapDomain(rawResponse('<html>rate limited</html>', { contentType: 'text/html' }))).message, /not JSON/);
  });
});

describe('lookupRdapDomain', () => {
  test('asks /domain/<name>, accepts 404 and follows the redirect to the registry', async () => {
    const caller = new RecordingCaller(fixtureResponse('rdap', 'example-com.json', RDAP_JSON));
    const answer = await lookupRdapDomain(caller, 'example.com', signal);
    const { provider, request } = caller.only();
    assert.equal(provider, rdap);
    assert.equal(request.path, '/domain/example.com');
    assert.deepEqual(request.acceptStatuses, [404]);
    assert.equal(request.followRedirects, 3);
    assert.equal(answer.value.found, true);
    assert.equal(answer.source.attribution, rdap.attribution);
  });
});
