import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { brave, parseBrave, searchBrave } from './brave.ts';
import { failureOf, fixtureBytes, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';

const signal = new AbortController().signal;
const JSON_TYPE = { contentType: 'application/json' };


describe('parseBrave', () => {
  test('reads web.results of the captured answer, markup stripped from descriptions', () => {
    const hits = parseBrave(fixtureResponse('brave', 'web-search.json', JSON_TYPE));
    assert.deepEqual(
      hits.map((hit) => hit.title),
      [
        'Private Search Engine - Brave Search',
        'Brave Search - Wikipedia',
        'The browser that puts you first | Brave',
        'r/brave on Reddit: Brave search vs Google search',
        'Brave Private Web Browser, VPN - Apps on Google Play',
        'r/brave_browser on Reddit: What are your thoughts on Brave Search',
      ],
    );
    assert.deepEqual(hits[0], {
      title: 'Private Search Engine - Brave Search',
      url: 'https://search.brave.com/',
      snippet:
        'Brave Search doesn’t track you or your queries. It is a private, independent, and transparent search engine. The real alternative to Google. On mobile, desktop, and anywhere the web takes you.',
      position: 1,
      publishedAt: '2023-04-27T00:00:00.000Z',
      extra: { age: 'April 27, 2023', source: 'Brave Search' },
    });
    assert.equal(hits[4]?.url, 'https://play.google.com/store/apps/details?id=com.brave.browser&hl=en_US');
    assert.equal(hits[1]?.publishedAt, '2024-08-10T10:30:07.000Z');
    assert.deepEqual(
      hits.map((hit) => hit.position),
      [1, 2, 3, 4, 5, 6],
    );
  });

  test('leaves the video results out: only web results are hits', () => {
    const urls = parseBrave(fixtureResponse('brave', 'web-search.json', JSON_TYPE)).map((hit) => hit.url);
    assert.ok(!urls.includes('https://www.youtube.com/watch?v=Uu1Gc3GM7CM'));
  });

  test('an ErrorResponse is a failure carrying Brave’s code and detail', () => {
    const failure = failureOf(() => parseBrave(fixtureResponse('brave', 'rate-limited-429.json', { status: 429, ...JSON_TYPE })));
    assert.equal(failure.status, 502);
    assert.match(failure.message, /^Brave Search: it refused the request \(RATE_LIMITED: Request rate limit exceeded for plan\)/);
    assert.equal(failure.details?.upstreamStatus, 429);
  });

  test('an ErrorResponse is recognised even when it arrives with HTTP 200', () => {
    const failure = failureOf(() => parseBrave(fixtureResponse('brave', 'rate-limited-429.json', JSON_TYPE)));
    assert.match(failure.message, /RATE_LIMITED/);
  });

  // Not provider captures: the smallest bodies that break the documented shape.
  test('a body that is not a web search response is refused', () => {
    assert.match(failureOf(() => parseBrave(rawResponse('{"type":"suggest"}', JSON_TYPE))).message, /not a web search response/);
    assert.match(failureOf(() => parseBrave(rawResponse('{"type":"search","web":{"results":{}}}', JSON_TYPE))).message, /no results list/);
    assert.match(failureOf(() => parseBrave(rawResponse('<html>gateway</html>', { status: 404 }))).message, /it answered HTTP 404/);
  });

  test('a search answer without a web block has no hits', () => {
    assert.deepEqual(parseBrave(rawResponse('{"type":"search","query":{"original":"x"}}', JSON_TYPE)), []);
  });
});

describe('searchBrave', () => {
  test('asks /res/v1/web/search for q and count (the limit, at most 20) and cuts to the limit', async () => {
    const caller = new RecordingCaller(fixtureResponse('brave', 'web-search.json', JSON_TYPE));
    const answer = await searchBrave(caller, 'brave search', 3, signal);
    const { provider, request } = caller.only();
    assert.equal(provider, brave);
    assert.equal(request.path, '/res/v1/web/search');
    assert.deepEqual(request.query, { q: 'brave search', count: 3, result_filter: 'web' });
    assert.equal(answer.value.length, 3);
    assert.equal(answer.source.attribution, 'Powered by Brave Search');

    const many = new RecordingCaller(fixtureResponse('brave', 'web-search.json', JSON_TYPE));
    await searchBrave(many, 'brave search', 50, signal);
    assert.equal(many.only().request.query?.count, 20);
  });

  test('lets 422-style refusals reach the parser but leaves 429 to the upstream layer', async () => {
    const caller = new RecordingCaller(rawResponse(fixtureBytes('brave', 'rate-limited-429.json'), { status: 422, ...JSON_TYPE }));
    await assert.rejects(searchBrave(caller, 'q', 5, signal), /RATE_LIMITED/);
    assert.ok(!(caller.only().request.acceptStatuses ?? []).includes(429));
  });

  test('sends its key as X-Subscription-Token (added by the upstream layer)', () => {
    assert.deepEqual(brave.apiKey, { env: 'TOOLGATE_BRAVE_API_KEY', in: 'header', name: 'x-subscription-token' });
    assert.equal(brave.baseUrl.default, 'https://api.search.brave.com');
  });
});
