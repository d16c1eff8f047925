import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { gdelt, isoFromSeenDate, parseGdelt, searchGdelt } from './gdelt.ts';
import { failureOf, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';

const signal = new AbortController().signal;
const json = { contentType: 'application/json; charset=utf-8' };
// gdeltdoc (alex9smith/gdelt-doc-api) documents that GDELT labels its plain-text errors text/html.
const notice = { contentType: 'text/html; charset=utf-8' };


describe('parseGdelt', () => {
  test('reads the captured article list: url, title, seendate as publishedAt, domain as source', () => {
    const stories = parseGdelt(fixtureResponse('gdelt', 'articles.json', json));
    assert.equal(stories.length, 4);
    assert.deepEqual(stories[0], {
      title: 'Customs grants approval to Vizhinjam International Seaport',
      url: 'https://www.thehindu.com/news/national/kerala/customs-grants-approval-to-vizhinjam-international-seaport/article68293772.ece',
      source: 'thehindu.com',
      publishedAt: '2024-06-15T17:00:00Z',
      provider: 'gdelt',
      rank: 1,
    });
    assert.equal(stories[1]?.title, 'ട്രോളിങ് നിയന്ത്രണം നീങ്ങി ; വിഴിഞ്ഞം തീരത്ത് ആവേശം , vizhinjam , fish');
    assert.equal(stories[1]?.source, 'mathrubhumi.com');
    assert.deepEqual(
      stories.map((story) => [story.rank, story.publishedAt]),
      [
        [1, '2024-06-15T17:00:00Z'],
        [2, '2024-07-06T09:30:00Z'],
        [3, '2024-06-20T15:45:00Z'],
        [4, '2024-07-15T10:30:00Z'],
      ],
    );
    assert.equal(stories[3]?.source, 'thehindubusinessline.com');
    // GDELT gives no engagement figures.
    assert.equal(stories[0]?.points, undefined);
  });

  test('no matches ({}, no articles member) is an empty list', () => {
    assert.deepEqual(parseGdelt(fixtureResponse('gdelt', 'no-results.json', json)), []);
  });

  test('the throttling notice is a rate limit with Retry-After 5 s', () => {
    const failure = failureOf(() => parseGdelt(fixtureResponse('gdelt', 'rate-limited.txt', notice)));
    assert.equal(failure.failure, 'rate_limited');
    assert.equal(failure.status, 503);
    assert.equal(failure.retryAfterSeconds, 5);
    assert.match(failure.message, /^GDELT: it asks for at most one request every 5 seconds/);
  });

  test('a query error sentence is a bad answer quoting it', () => {
    const failure = failureOf(() => parseGdelt(fixtureResponse('gdelt', 'keyword-error.txt', notice)));
    assert.equal(failure.failure, 'bad_answer');
    assert.match(failure.message, /^GDELT: it refused the query \(One or more of your keywords were too short, too long or too common: \(locationcc:br\)\)/);
  });

  test('"The specified phrase is too short." is a bad answer too', () => {
    const failure = failureOf(() => parseGdelt(rawResponse('The specified phrase is too short.', notice)));
    assert.match(failure.message, /it refused the query \(The specified phrase is too short\)/);
  });

  test('an HTML page instead of JSON is a bad answer', () => {
    const failure = failureOf(() => parseGdelt(rawResponse('<!DOCTYPE html><html><head><title>Error</title></head><body>Service unavailable</body></html>', notice)));
    assert.equal(failure.failure, 'bad_answer');
    assert.match(failure.message, /it answered with an HTML page \(HTTP 200\)/);
  });

  test('an empty body is a bad answer', () => {
    assert.match(failureOf(() => parseGdelt(rawResponse('', json))).message, /its answer is empty/);
  });

  test('articles without a usable url or seendate are skipped and ranks stay dense', () => {
    const body = JSON.stringify({
      articles: [
        { url: '', title: 'no url', seendate: '20240615T170000Z' },
        { url: 'https://example.org/a', title: 'no date', seendate: '' },
        { url: 'https://www.example.org/b', title: 'kept', seendate: '20240615T170000Z' },
      ],
    });
    const stories = parseGdelt(rawResponse(body, json));
    assert.deepEqual(
      stories.map((story) => [story.title, story.rank, story.source]),
      [['kept', 1, 'example.org']],
    );
  });
});

describe('isoFromSeenDate', () => {
  test('reads the compact UTC stamp and refuses anything else', () => {
    assert.equal(isoFromSeenDate('20240706T093000Z'), '2024-07-06T09:30:00Z');
    assert.equal(isoFromSeenDate('20240231T000000Z'), undefined);
    assert.equal(isoFromSeenDate('2024-07-06'), undefined);
  });
});

describe('searchGdelt', () => {
  test('asks the DOC API for a JSON article list, newest first, over 24 hours', async () => {
    const caller = new RecordingCaller(fixtureResponse('gdelt', 'articles.json', json));
    const answer = await searchGdelt(caller, 'vizhinjam', 2, signal);
    const { provider, request } = caller.only();
    assert.equal(provider, gdelt);
    assert.equal(request.path, '/api/v2/doc/doc');
    assert.deepEqual(request.query, { query: 'vizhinjam', mode: 'ArtList', format: 'json', maxrecords: 2, sort: 'DateDesc', timespan: '24h' });
    assert.equal(answer.value.length, 2);
  });

  test('maxrecords stays within the API ceiling of 250', async () => {
    const caller = new RecordingCaller(fixtureResponse('gdelt', 'no-results.json', json));
    await searchGdelt(caller, 'x', 1_000, signal);
    assert.equal(caller.only().request.query?.maxrecords, 250);
  });

  test('declares GDELT one-request-per-5-seconds limit, one at a time', () => {
    assert.deepEqual(gdelt.rateLimit, { requests: 1, perMs: 5_000, concurrency: 1, maxQueueMs: 5_000 });
    assert.equal(gdelt.baseUrl.env, 'TOOLGATE_GDELT_URL');
    assert.equal(gdelt.baseUrl.default, 'https://api.gdeltproject.org');
  });
});
