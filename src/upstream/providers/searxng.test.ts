import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { failureOf, fixtureResponse, RecordingCaller } from './recording-caller.ts';
import { parseSearxng, searchSearxng, searxng } from './searxng.ts';

const signal = new AbortController().signal;


describe('parseSearxng', () => {
  test('reads the captured answer: titles, links, snippets, engines, score and publishedDate', () => {
    const hits = parseSearxng(fixtureResponse('searxng', 'search-results.json', { contentType: 'application/json' }));
    assert.equal(hits.length, 7);
    assert.deepEqual(
      hits.map((hit) => hit.position),
      [1, 2, 3, 4, 5, 6, 7],
    );
    assert.deepEqual(hits[0], {
      title: 'ground coffee - How does grind size affect the extraction time and taste of espresso? - Coffee Stack Exchange',
      url: 'https://coffee.stackexchange.com/questions/6402/how-does-grind-size-affect-the-extraction-time-and-taste-of-espresso',
      snippet:
        'Aug 19, 2024 · An overly fine grind produces a slow expression, but those fine grounds extract faster than coarse grounds so too fine a grind (or over tamping) ...',
      position: 1,
      extra: { engines: 'brave,google', score: 2.3, category: 'general' },
    });
    assert.equal(hits[3]?.title, 'Dialling In Basics | Espresso Aficionados');
    assert.equal(hits[3]?.url, 'https://espressoaf.com/guides/beginner.html');
    // The capture has a result with empty content: the hit keeps its title and link.
    assert.equal(hits[5]?.url, 'https://www.reddit.com/r/espresso/comments/rgzj28/how_do_you_guys_figure_out_the_best_grind_size/');
    assert.equal(hits[5]?.snippet, '');
    // publishedDate comes without a zone ("2026-02-17T00:00:00") and is read as UTC.
    assert.equal(hits[6]?.publishedAt, '2026-02-17T00:00:00.000Z');
  });

  test('some engines failing while others answered is still an answer', () => {
    // The capture lists duckduckgo and startpage as unresponsive and still carries results.
    assert.ok(parseSearxng(fixtureResponse('searxng', 'search-results.json')).length > 0);
  });

  test('no results because every engine failed is a failure naming the engines', () => {
    const failure = failureOf(() => parseSearxng(fixtureResponse('searxng', 'all-engines-failed.json')));
    assert.equal(failure.status, 502);
    assert.equal(failure.failure, 'bad_answer');
    assert.match(failure.message, /^SearXNG: every engine failed \(duckduckgo: CAPTCHA; startpage: Suspended: CAPTCHA\)/);
  });

  test('no results with every engine answering is an empty list', () => {
    assert.deepEqual(parseSearxng(fixtureResponse('searxng', 'no-results.json')), []);
  });

  test('the 403 an instance gives when format=json is not enabled says so', () => {
    const response = fixtureResponse('searxng', 'format-json-disabled-403.html', { status: 403, contentType: 'text/html; charset=utf-8' });
    const failure = failureOf(() => parseSearxng(response));
    assert.match(failure.message, /the instance does not allow format=json/);
    assert.equal(failure.details?.upstreamStatus, 403);
  });

  test('an HTML page where JSON was asked for is read as format=json not being allowed', () => {
    const response = fixtureResponse('searxng', 'format-json-disabled-403.html', { status: 200, contentType: 'text/html; charset=utf-8' });
    assert.match(failureOf(() => parseSearxng(response)).message, /the instance does not allow format=json/);
  });
});

describe('searchSearxng', () => {
  test('asks /search with q and format=json, and cuts the answer to the limit', async () => {
    const caller = new RecordingCaller(fixtureResponse('searxng', 'search-results.json', { contentType: 'application/json' }));
    const answer = await searchSearxng(caller, 'espresso grind size extraction', 3, signal);
    const { provider, request } = caller.only();
    assert.equal(provider, searxng);
    assert.equal(request.path, '/search');
    assert.deepEqual(request.query, { q: 'espresso grind size extraction', format: 'json' });
    assert.equal(request.method ?? 'GET', 'GET');
    assert.equal(answer.value.length, 3);
    assert.deepEqual(
      answer.value.map((hit) => hit.position),
      [1, 2, 3],
    );
    assert.equal(answer.source.attribution, 'Results via SearXNG');
  });

  test('lets the 403 reach the parser, so the caller learns format=json is off', async () => {
    const caller = new RecordingCaller(fixtureResponse('searxng', 'format-json-disabled-403.html', { status: 403, contentType: 'text/html; charset=utf-8' }));
    await assert.rejects(searchSearxng(caller, 'anything', 5, signal), /the instance does not allow format=json/);
  });

  test('is off until TOOLGATE_SEARXNG_URL is set', () => {
    assert.equal(searxng.baseUrl.env, 'TOOLGATE_SEARXNG_URL');
    assert.equal(searxng.baseUrl.default, undefined);
  });
});
