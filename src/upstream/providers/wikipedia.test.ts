import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { ToolError } from '../../errors/tool-error.ts';
import { failureOf, fixtureResponse, RecordingCaller } from './recording-caller.ts';
import { parseWikipedia, searchWikipedia, wikipedia } from './wikipedia.ts';

const signal = new AbortController().signal;
const json = { contentType: 'application/json' };


describe('parseWikipedia', () => {
  test("reads MediaWiki's example answer: canonical link, excerpt as plain text, description", () => {
    const hits = parseWikipedia(fixtureResponse('wikipedia', 'search-results.json', json), 'en');
    assert.deepEqual(hits, [
      {
        title: 'Mobile game',
        url: 'https://en.wikipedia.org/wiki/Mobile_game',
        snippet: 'PDA to handheld game console, portable media player or graphing calculator',
        position: 1,
        extra: { description: 'Video game played on a mobile device' },
      },
    ]);
  });

  test('reads the documented search result object', () => {
    const [hit] = parseWikipedia(fixtureResponse('wikipedia', 'search-result-object-documented.json', json), 'en');
    assert.equal(hit?.title, 'Jupiter');
    assert.equal(hit?.url, 'https://en.wikipedia.org/wiki/Jupiter');
    assert.match(hit?.snippet ?? '', /^Jupiter is the fifth planet from the Sun/);
    assert.doesNotMatch(hit?.snippet ?? '', /searchmatch|</);
  });

  test('links to the requested language edition', () => {
    const [hit] = parseWikipedia(fixtureResponse('wikipedia', 'search-results.json', json), 'de');
    assert.equal(hit?.url, 'https://de.wikipedia.org/wiki/Mobile_game');
  });

  test('no pages is an empty list', () => {
    assert.deepEqual(parseWikipedia(fixtureResponse('wikipedia', 'no-results.json', json), 'en'), []);
  });

  test("a refusal names MediaWiki's error key and English message", () => {
    const failure = failureOf(() => parseWikipedia(fixtureResponse('wikipedia', 'error-404.json', { status: 404, ...json }), 'en'));
    assert.equal(failure.failure, 'bad_answer');
    assert.match(failure.message, /^Wikipedia: it refused the search \(HTTP 404, rest-nonexistent-title: The specified page does not exist\)/);
    assert.equal(failure.details?.upstreamStatus, 404);
  });

  test('a body without pages is a bad answer', () => {
    const failure = failureOf(() => parseWikipedia(fixtureResponse('stackexchange', 'search-results.json', json), 'en'));
    assert.match(failure.message, /no pages list/);
  });
});

describe('searchWikipedia', () => {
  test('asks the REST search endpoint of the language edition with q and limit', async () => {
    const caller = new RecordingCaller(fixtureResponse('wikipedia', 'search-results.json', json));
    const answer = await searchWikipedia(caller, 'mobile game calculator', 5, signal, 'fr');
    const { provider, request } = caller.only();
    assert.equal(provider, wikipedia);
    assert.equal(request.path, '/w/rest.php/v1/search/page');
    assert.deepEqual(request.baseUrlParams, { lang: 'fr' });
    assert.deepEqual(request.query, { q: 'mobile game calculator', limit: 5 });
    assert.equal(answer.value[0]?.url, 'https://fr.wikipedia.org/wiki/Mobile_game');
    assert.equal(answer.source.attribution, 'Wikipedia (CC BY-SA 4.0)');
  });

  test("keeps limit within the endpoint's 1 to 100", async () => {
    const caller = new RecordingCaller(fixtureResponse('wikipedia', 'no-results.json', json));
    await searchWikipedia(caller, 'x', 500, signal);
    assert.equal(caller.only().request.query?.limit, 100);
  });

  test('lets the JSON refusals reach the parser', async () => {
    const caller = new RecordingCaller(fixtureResponse('wikipedia', 'error-404.json', { status: 404, ...json }));
    await assert.rejects(searchWikipedia(caller, 'x', 5, signal), /rest-nonexistent-title/);
  });

  test('refuses a language that is not a Wikipedia language code, without asking', async () => {
    const caller = new RecordingCaller(fixtureResponse('wikipedia', 'no-results.json', json));
    for (const lang of ['EN', 'english', 'en.evil.example', 'e', '']) {
      await assert.rejects(searchWikipedia(caller, 'x', 5, signal, lang), (error: unknown) => error instanceof ToolError && error.status === 400);
    }
    assert.equal(caller.calls.length, 0);
  });

  test('has Wikipedia as its default base, with a language placeholder', () => {
    assert.equal(wikipedia.baseUrl.env, 'TOOLGATE_WIKIPEDIA_URL');
    assert.equal(wikipedia.baseUrl.default, 'https://{lang}.wikipedia.org');
  });
});
