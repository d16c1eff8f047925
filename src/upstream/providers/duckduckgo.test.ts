import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { duckduckgo, parseDuckDuckGo, searchDuckDuckGo } from './duckduckgo.ts';
import { failureOf, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';

const signal = new AbortController().signal;
const HTML_TYPE = { contentType: 'text/html; charset=UTF-8' };


describe('parseDuckDuckGo', () => {
  test('unwraps //duckduckgo.com/l/?...&uddg= links and strips <b> from titles and snippets (2020 capture)', () => {
    const hits = parseDuckDuckGo(fixtureResponse('duckduckgo', 'results-uddg-links.html', HTML_TYPE));
    assert.equal(hits.length, 25);
    assert.deepEqual(hits[0], {
      title: 'Fake and free Bypass-on-Cookie, with CloudFlare edge cache...',
      url: 'https://medium.com/homullus/fake-and-free-bypass-on-cookie-with-cloudflare-edge-cache-workers-for-wordpress-72c36d23c174',
      snippet:
        'Bypass on cookie is a common HTTP caching technique. For example, if you wanted to spin up a This is why, from the perspective of the cache itself, all requests are the same and should have the...',
      position: 1,
    });
    assert.equal(hits[3]?.url, 'https://en.wikipedia.org/wiki/Wikipedia:Bypass_your_cache');
    assert.equal(hits[5]?.url, 'https://www.youtube.com/watch?v=Gta9XZ3fu6Q');
    assert.equal(hits[4]?.snippet, 'When a module is \'require\'d before mockery is enabled, mockery will still provide the mock when enabled, bypassing the cache entry.');
    assert.deepEqual(
      hits.map((hit) => hit.position),
      Array.from({ length: 25 }, (_, index) => index + 1),
    );
  });

  test('reads direct links, entity-decoded snippets and the bare date span (2025 capture)', () => {
    const hits = parseDuckDuckGo(fixtureResponse('duckduckgo', 'results-direct-links.html', HTML_TYPE));
    assert.equal(hits.length, 10);
    assert.equal(hits[0]?.title, 'GitHub - cloudwego/eino: The ultimate LLM/AI application development ...');
    assert.equal(hits[0]?.url, 'https://github.com/cloudwego/eino');
    assert.equal(hits[0]?.publishedAt, undefined);
    assert.equal(hits[1]?.title, 'Eino: 概述 | CloudWeGo');
    assert.equal(hits[1]?.url, 'https://www.cloudwego.io/zh/docs/eino/overview/');
    assert.equal(hits[1]?.publishedAt, '2025-06-23T00:00:00.000Z');
    assert.match(hits[1]?.snippet ?? '', /^Eino: 概述 简介\. Eino\['aino\] \(近似音: i know，希望框架能达到 "i know" 的愿景\)/);
    assert.equal(hits[9]?.url, 'https://en.wikipedia.org/wiki/Eino');
  });

  test('the no-results page is an empty list', () => {
    assert.deepEqual(parseDuckDuckGo(fixtureResponse('duckduckgo', 'no-results.html', HTML_TYPE)), []);
  });

  test('the "EOF" entry linking to a Google search is not a result', () => {
    assert.deepEqual(parseDuckDuckGo(fixtureResponse('duckduckgo', 'eof-no-results.html', HTML_TYPE)), []);
  });

  test('the bot challenge is a failure, whether it comes with 202 or 200', () => {
    const with202 = failureOf(() => parseDuckDuckGo(fixtureResponse('duckduckgo', 'anomaly-challenge.html', { status: 202, ...HTML_TYPE })));
    assert.equal(with202.status, 502);
    assert.match(with202.message, /^DuckDuckGo: it answered with its bot challenge \(HTTP 202\)/);
    const with200 = failureOf(() => parseDuckDuckGo(fixtureResponse('duckduckgo', 'anomaly-challenge.html', HTML_TYPE)));
    assert.match(with200.message, /bot challenge \("anomaly" page\)/);
  });

  // Not a capture: no attributable page with an ad was found. The markup is the one the sources
  // name (SearXNG's engine skips `result--ad`; ad links go through duckduckgo.com/y.js).
  test('skips ads and y.js ad links; positions count organic results only', () => {
    const page = `<html><body><div id="links" class="results">
      <div class="result results_links results_links_deep result--ad "><h2 class="result__title"><a rel="nofollow" class="result__a" href="https://duckduckgo.com/y.js?ad_domain=example.com&amp;ad_provider=bingv7aa&amp;ad_type=txad">Ad</a></h2></div>
      <div class="result results_links results_links_deep web-result "><h2 class="result__title"><a rel="nofollow" class="result__a" href="//duckduckgo.com/l/?uddg=https%3A%2F%2Fduckduckgo.com%2Fy.js%3Fad_domain%3Dexample.com&amp;rut=x">Wrapped ad</a></h2></div>
      <div class="result results_links results_links_deep web-result "><h2 class="result__title"><a rel="nofollow" class="result__a" href="https://example.org/">Example &amp; Co</a></h2><a class="result__snippet" href="https://example.org/">An <b>organic</b> result</a></div>
    </div></body></html>`;
    assert.deepEqual(parseDuckDuckGo(rawResponse(page, HTML_TYPE)), [{ title: 'Example & Co', url: 'https://example.org/', snippet: 'An organic result', position: 1 }]);
  });

  test('a page without the results list is a failure, not "no results"', () => {
    assert.match(failureOf(() => parseDuckDuckGo(rawResponse('<html><body><p>Something else</p></body></html>', HTML_TYPE))).message, /no results list/);
  });
});

describe('searchDuckDuckGo', () => {
  test('posts the search form (q, empty b) to /html/ and cuts the answer to the limit', async () => {
    const caller = new RecordingCaller(fixtureResponse('duckduckgo', 'results-direct-links.html', HTML_TYPE));
    const answer = await searchDuckDuckGo(caller, 'eino', 4, signal);
    const { provider, request } = caller.only();
    assert.equal(provider, duckduckgo);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/html/');
    assert.deepEqual(request.form, { q: 'eino', b: '' });
    assert.equal(answer.value.length, 4);
    assert.equal(answer.source.attribution, 'Results from DuckDuckGo');
  });

  test('a challenge answered with 202 reaches the parser and fails the call', async () => {
    const caller = new RecordingCaller(fixtureResponse('duckduckgo', 'anomaly-challenge.html', { status: 202, ...HTML_TYPE }));
    await assert.rejects(searchDuckDuckGo(caller, 'rust programming language', 5, signal), /bot challenge/);
  });
});
