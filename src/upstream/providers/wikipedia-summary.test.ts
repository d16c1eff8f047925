import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { failureOf, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';
import { articleUrl, fetchPageLinks, fetchPageSummary, parsePageLinks, parsePageSummary, permanentUrl, searchEdition } from './wikipedia-summary.ts';
import { wikipedia } from './wikipedia.ts';

const signal = new AbortController().signal;
const json = { contentType: 'application/json; charset=utf-8' };
const problem = { status: 404, contentType: 'application/problem+json' };

describe('parsePageSummary', () => {
  test("reads Wikimedia's own captured summary of Tokyo", () => {
    assert.deepEqual(parsePageSummary(fixtureResponse('wikipedia', 'summary-tokyo.json', json), 'en'), {
      type: 'standard',
      title: 'Tokyo',
      canonicalTitle: 'Tokyo',
      description: 'Capital and prefecture of Japan',
      extract: parsePageSummaryExtract(),
      revision: '871928272',
      lastModified: '2018-12-04T06:47:20Z',
      wikidataId: 'Q1490',
      thumbnail: {
        url: 'https://upload.wikimedia.org/wikipedia/commons/thumb/b/b2/Skyscrapers_of_Shinjuku_2009_January.jpg/320px-Skyscrapers_of_Shinjuku_2009_January.jpg',
        width: 320,
        height: 171,
      },
      pageId: 30057,
      lang: 'en',
    });
  });

  test('a page without an image has no thumbnail; titles keep their canonical form', () => {
    const summary = parsePageSummary(fixtureResponse('wikipedia', 'summary-dart-programming-language.json', json), 'en');
    assert.equal(summary?.title, 'Dart (programming language)');
    assert.equal(summary?.canonicalTitle, 'Dart_(programming_language)');
    assert.equal(summary?.thumbnail, null);
    assert.equal(summary?.wikidataId, 'Q406009');
  });

  test('a disambiguation page says so', () => {
    const summary = parsePageSummary(fixtureResponse('wikipedia', 'summary-dart-disambiguation.json', json), 'en');
    assert.equal(summary?.type, 'disambiguation');
    assert.equal(summary?.extract, 'Dart or DART may refer to:');
    assert.equal(summary?.description, 'Topics referred to by the same term');
  });

  test('the problem+json 404 is "no such page"', () => {
    assert.equal(parsePageSummary(fixtureResponse('wikipedia', 'summary-not-found-404.json', problem), 'en'), null);
  });

  test('anything else is a bad answer', () => {
    assert.match(failureOf(() => parsePageSummary(rawResponse('{"title":"x"}', { status: 404, ...json }), 'en')).message, /refused the page summary \(HTTP 404, x\)/);
    assert.match(failureOf(() => parsePageSummary(fixtureResponse('wikipedia', 'search-results.json', json), 'en')).message, /not a page summary/);
  });
});

/** The Tokyo fixture's extract with its runs of spaces squashed (by hand: "Prefecture  and" -> "Prefecture and"). */
function parsePageSummaryExtract(): string {
  return "Tokyo , officially Tokyo Metropolis , one of the 47 prefectures of Japan, has served as the Japanese capital since 1869. As of 2014 the Greater Tokyo Area ranked as the most populous metropolitan area in the world. The urban area houses the seat of the Emperor of Japan, of the Japanese government and of the National Diet. Tokyo forms part of the Kantō region on the southeastern side of Japan's main island, Honshu, and includes the Izu Islands and Ogasawara Islands. Tokyo was formerly named Edo when Shōgun Tokugawa Ieyasu made the city as his headquarters in 1603. It became the capital after Emperor Meiji moved his seat to the city from Kyoto in 1868; at that time Edo was renamed Tokyo. Tokyo Metropolis formed in 1943 from the merger of the former Tokyo Prefecture and the city of Tokyo .";
}

describe('fetchPageSummary', () => {
  test('asks the REST summary of the edition for the title with underscores, following normalization and redirects', async () => {
    const caller = new RecordingCaller(fixtureResponse('wikipedia', 'summary-dart-programming-language.json', json));
    await fetchPageSummary(caller, 'simple', 'Dart (programming language)', signal);
    const { provider, request } = caller.only();
    assert.equal(provider, wikipedia);
    assert.equal(request.path, '/api/rest_v1/page/summary/Dart_(programming_language)');
    assert.deepEqual(request.baseUrlParams, { lang: 'simple' });
    assert.deepEqual(request.acceptStatuses, [404]);
    assert.equal(request.followRedirects, 2);
  });

  test('a title with a slash stays one path segment', async () => {
    const caller = new RecordingCaller(fixtureResponse('wikipedia', 'summary-not-found-404.json', problem));
    assert.equal((await fetchPageSummary(caller, 'en', 'AC/DC', signal)).value, null);
    assert.equal(caller.only().request.path, '/api/rest_v1/page/summary/AC%2FDC');
  });
});

describe('parsePageLinks', () => {
  test('reads the article links of a captured Action API answer, in order', () => {
    const links = parsePageLinks(fixtureResponse('wikipedia', 'links-david-tepper.json', json));
    assert.equal(links.length, 10);
    assert.equal(links[0], '1987 stock market crash');
    assert.equal(links[9], '2017 Carolina Panthers season');
  });

  test('the formatversion=2 pages array reads the same', () => {
    const body = '{"batchcomplete":true,"query":{"pages":[{"pageid":1,"ns":0,"title":"X","links":[{"ns":0,"title":"A"},{"ns":14,"title":"Category:B"}]}]}}';
    assert.deepEqual(parsePageLinks(rawResponse(body, json)), ['A']);
  });

  test('an Action API error delivered with HTTP 200 is a bad answer naming its code', () => {
    const failure = failureOf(() => parsePageLinks(fixtureResponse('wikipedia', 'action-api-error-200.json', json)));
    assert.equal(failure.failure, 'bad_answer');
    assert.match(failure.message, /^Wikipedia: the Action API refused the query \(badvalue: Unrecognized value/);
  });
});

describe('fetchPageLinks and searchEdition', () => {
  test('links: main-namespace links of the title, as many as allowed, redirects resolved', async () => {
    const caller = new RecordingCaller(fixtureResponse('wikipedia', 'links-david-tepper.json', json));
    await fetchPageLinks(caller, 'en', 'Dart', signal);
    const { request } = caller.only();
    assert.equal(request.path, '/w/api.php');
    assert.deepEqual(request.query, { action: 'query', prop: 'links', titles: 'Dart', plnamespace: 0, pllimit: 'max', redirects: 1, format: 'json' });
  });

  test('search works for editions whose codes searchWikipedia does not accept', async () => {
    const caller = new RecordingCaller(fixtureResponse('wikipedia', 'search-results.json', json));
    const answer = await searchEdition(caller, 'mobile game', 'zh-min-nan', 5, signal);
    assert.deepEqual(caller.only().request.baseUrlParams, { lang: 'zh-min-nan' });
    assert.equal(answer.value[0]?.url, 'https://zh-min-nan.wikipedia.org/wiki/Mobile_game');
  });
});

describe('links', () => {
  test('article and permanent links', () => {
    assert.equal(articleUrl('en', 'Dart_(programming_language)'), 'https://en.wikipedia.org/wiki/Dart_(programming_language)');
    assert.equal(permanentUrl('en', 'Tokyo', '871928272'), 'https://en.wikipedia.org/w/index.php?title=Tokyo&oldid=871928272');
    assert.equal(permanentUrl('en', "Fermat's_Last_Theorem", '1'), "https://en.wikipedia.org/w/index.php?title=Fermat's_Last_Theorem&oldid=1");
  });
});
