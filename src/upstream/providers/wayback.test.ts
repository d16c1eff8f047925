import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { failureOf, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';
import { lookupWayback, parseWayback, wayback } from './wayback.ts';

const signal = new AbortController().signal;
const JSON_TYPE = { contentType: 'application/json' };


describe('parseWayback', () => {
  test('reads the documented closest snapshot: https link, ISO capture time, numeric status', () => {
    assert.deepEqual(parseWayback(fixtureResponse('wayback', 'available.json', JSON_TYPE)), {
      archived: true,
      archiveUrl: 'https://web.archive.org/web/20130919044612/http://example.com/',
      timestamp: '2013-09-19T04:46:12Z',
      status: 200,
    });
  });

  test('reads a live answer that also echoes the asked url', () => {
    assert.deepEqual(parseWayback(fixtureResponse('wayback', 'available-with-url-echo.json', JSON_TYPE)), {
      archived: true,
      archiveUrl: 'https://web.archive.org/web/20200119032503/https://www.latimes.com/',
      timestamp: '2020-01-19T03:25:03Z',
      status: 200,
    });
  });

  test('empty archived_snapshots means not archived', () => {
    assert.deepEqual(parseWayback(fixtureResponse('wayback', 'not-archived.json', JSON_TYPE)), { archived: false });
  });

  // Not provider captures: bodies that are not the documented object.
  test('a body that is not the availability object is a failure', () => {
    assert.match(failureOf(() => parseWayback(rawResponse('{"url": "example.com"}', JSON_TYPE))).message, /^Wayback Machine: its answer is not the availability object/);
    assert.match(failureOf(() => parseWayback(rawResponse('<html><body>Error</body></html>', { contentType: 'text/html' }))).message, /not JSON/);
    assert.match(failureOf(() => parseWayback(rawResponse('[]', JSON_TYPE))).message, /not an object/);
    const noStamp = '{"archived_snapshots": {"closest": {"available": true, "url": "http://web.archive.org/web/2013/http://example.com/", "status": "200"}}}';
    assert.match(failureOf(() => parseWayback(rawResponse(noStamp, JSON_TYPE))).message, /14-digit timestamp/);
  });
});

describe('lookupWayback', () => {
  test('asks /wayback/available for the url alone (the most recent capture)', async () => {
    const caller = new RecordingCaller(fixtureResponse('wayback', 'available.json', JSON_TYPE));
    const answer = await lookupWayback(caller, 'example.com', signal);
    const { provider, request } = caller.only();
    assert.equal(provider, wayback);
    assert.equal(request.path, '/wayback/available');
    assert.deepEqual(request.query, { url: 'example.com' });
    assert.equal(answer.value.archived, true);
    assert.equal(answer.source.attribution, 'Internet Archive Wayback Machine');
  });

  test('a URL never archived is an answer', async () => {
    const caller = new RecordingCaller(fixtureResponse('wayback', 'not-archived.json', JSON_TYPE));
    assert.deepEqual((await lookupWayback(caller, 'example.com', signal)).value, { archived: false });
  });
});
