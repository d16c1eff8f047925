import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller, ProviderRequest, ResponseParser } from '../provider-call.ts';
import type { ProviderDefinition } from '../provider.ts';
import { UpstreamError } from '../upstream-errors.ts';
import { failureOf, fixtureResponse, RecordingCaller } from './recording-caller.ts';
import { MethodBackoff, parseStackExchange, searchStackExchange, stackexchange } from './stackexchange.ts';

const signal = new AbortController().signal;
const json = { contentType: 'application/json; charset=utf-8' };


/** Answers like the layer would with a fresh fetch at `fetchedAtMs`. */
function callerFetchedAt(response: RawResponse, fetchedAtMs: number): ProviderCaller {
  return {
    isConfigured: () => true,
    async call<T>(provider: ProviderDefinition, _request: ProviderRequest, parse: ResponseParser<T>): Promise<ProviderAnswer<T>> {
      return {
        value: parse(response),
        source: { provider: provider.id, name: provider.name, url: 'https://api.stackexchange.com/2.3/search/advanced', fetchedAt: new Date(fetchedAtMs).toISOString(), attribution: provider.attribution },
      };
    },
  };
}

describe('parseStackExchange', () => {
  test('reads the captured page: decoded titles, links, creation date, score, answers, answered', () => {
    const { hits, backoffSeconds } = parseStackExchange(fixtureResponse('stackexchange', 'search-results.json', json));
    assert.equal(backoffSeconds, undefined);
    assert.equal(hits.length, 6);
    assert.deepEqual(hits[0], {
      title: 'CSS - off canvas issue',
      url: 'http://stackoverflow.com/questions/40332332/css-off-canvas-issue',
      snippet: '',
      position: 1,
      publishedAt: '2016-10-30T18:41:10.000Z',
      extra: { score: 2, answers: 0, answered: false },
    });
    assert.equal(hits[2]?.title, "How to detect DIV's dimension changed?");
    assert.deepEqual(hits[2]?.extra, { score: 115, answers: 16, answered: true });
    assert.equal(hits[3]?.title, "''.velocity is not a function - Materialize css");
    // An entity-encoded tag in a title is text, not markup.
    assert.equal(hits[4]?.title, 'link <a> tag downloading the default html page when condition is not fulfilled');
    assert.equal(hits[5]?.title, 'Responsive Design: How to create two <div> side by side: one fluid and one fixed?');
    assert.deepEqual(
      hits.map((hit) => hit.position),
      [1, 2, 3, 4, 5, 6],
    );
  });

  test('reports the backoff a page asks for', () => {
    const { hits, backoffSeconds } = parseStackExchange(fixtureResponse('stackexchange', 'search-results-with-backoff.json', json));
    assert.equal(hits.length, 1);
    assert.equal(backoffSeconds, 10);
  });

  test('throttle_violation is rate limiting, with Retry-After from its message', () => {
    const failure = failureOf(() => parseStackExchange(fixtureResponse('stackexchange', 'throttle-violation.json', { status: 400, ...json })));
    assert.equal(failure.failure, 'rate_limited');
    assert.equal(failure.status, 503);
    assert.equal(failure.retryAfterSeconds, 17524);
    assert.match(failure.message, /^Stack Exchange: it is throttling this gateway \(too many requests from this IP/);
  });

  test('a backoff violation is rate limiting too, without a stated wait', () => {
    const failure = failureOf(() => parseStackExchange(fixtureResponse('stackexchange', 'throttle-violation-backoff.json', { status: 400, ...json })));
    assert.equal(failure.failure, 'rate_limited');
    assert.equal(failure.retryAfterSeconds, undefined);
    assert.match(failure.message, /Violation of backoff parameter/);
  });

  test('any other error names its error_name', () => {
    const failure = failureOf(() => parseStackExchange(fixtureResponse('stackexchange', 'bad-parameter.json', { status: 400, ...json })));
    assert.equal(failure.failure, 'bad_answer');
    assert.equal(failure.details?.upstreamStatus, 400);
    assert.match(failure.message, /^Stack Exchange: it refused the search \(bad_parameter: pagesize\)/);
  });

  test('a body without items is a bad answer', () => {
    const failure = failureOf(() => parseStackExchange(fixtureResponse('wikipedia', 'no-results.json', json)));
    assert.match(failure.message, /no items list/);
  });
});

describe('searchStackExchange', () => {
  test('asks search/advanced on Stack Overflow by relevance with the default filter, and cuts to the limit', async () => {
    const caller = new RecordingCaller(fixtureResponse('stackexchange', 'search-results.json', json));
    const answer = await searchStackExchange(caller, 'detect div resize', 3, signal, new MethodBackoff());
    const { provider, request } = caller.only();
    assert.equal(provider, stackexchange);
    assert.equal(request.path, '/2.3/search/advanced');
    assert.deepEqual(request.query, { q: 'detect div resize', site: 'stackoverflow', order: 'desc', sort: 'relevance', pagesize: 3, filter: 'default' });
    assert.deepEqual(request.acceptStatuses, [400]);
    assert.equal(answer.value.length, 3);
    assert.equal(answer.source.attribution, 'Stack Exchange (CC BY-SA, content by its authors)');
  });

  test('lets the 400 error body reach the parser', async () => {
    const caller = new RecordingCaller(fixtureResponse('stackexchange', 'throttle-violation.json', { status: 400, ...json }));
    await assert.rejects(searchStackExchange(caller, 'x', 5, signal, new MethodBackoff()), (error: unknown) => error instanceof UpstreamError && error.failure === 'rate_limited');
  });

  test('after an answer with backoff, refuses locally until it has passed', async () => {
    let now = 1_000_000;
    const backoff = new MethodBackoff(() => now);
    const withBackoff = callerFetchedAt(fixtureResponse('stackexchange', 'search-results-with-backoff.json', json), now);
    assert.equal((await searchStackExchange(withBackoff, 'x', 5, signal, backoff)).value.length, 1);

    now += 4_000;
    const quiet = new RecordingCaller(fixtureResponse('stackexchange', 'search-results.json', json));
    await assert.rejects(searchStackExchange(quiet, 'x', 5, signal, backoff), (error: unknown) => error instanceof UpstreamError && error.failure === 'rate_limited' && error.retryAfterSeconds === 6);
    assert.equal(quiet.calls.length, 0);

    now += 6_000;
    assert.equal((await searchStackExchange(quiet, 'x', 5, signal, backoff)).value.length, 5);
  });

  test('a cached answer fetched long ago does not restart the backoff', async () => {
    const backoff = new MethodBackoff(() => 1_000_000);
    const oldAnswer = callerFetchedAt(fixtureResponse('stackexchange', 'search-results-with-backoff.json', json), 1_000_000 - 60_000);
    await searchStackExchange(oldAnswer, 'x', 5, signal, backoff);
    assert.equal(backoff.remainingSeconds(), undefined);
  });

  test('its long-run rate stays within the keyless daily quota of 300', () => {
    const { requests, perMs } = stackexchange.rateLimit;
    assert.ok((24 * 60 * 60_000 * requests) / perMs <= 300);
    assert.equal(stackexchange.baseUrl.default, 'https://api.stackexchange.com');
  });
});
