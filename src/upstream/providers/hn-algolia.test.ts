import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  hackerNewsFrontPage,
  hnAlgolia,
  parseHackerNewsHits,
  parseHackerNewsStories,
  searchHackerNews,
  searchHackerNewsStories,
} from './hn-algolia.ts';
import { failureOf, fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';

const signal = new AbortController().signal;
const json = { contentType: 'application/json; charset=utf-8' };


describe('parseHackerNewsHits', () => {
  test('reads a captured relevance search: title, link, points and comments as the snippet', () => {
    const hits = parseHackerNewsHits(fixtureResponse('hn-algolia', 'search-stories.json', json));
    assert.deepEqual(hits, [
      {
        title: 'Steve Jobs Resigns as CEO of Apple',
        url: 'http://finance.yahoo.com/news/Steve-Jobs-Resigns-as-CEO-of-bw-19285464.html?x=0&.v=1',
        // story_text is "" in the capture, so the snippet says how the story did.
        snippet: '1638 points, 308 comments',
        position: 1,
        publishedAt: '2011-08-24T22:37:35.000Z',
        extra: { discussionUrl: 'https://news.ycombinator.com/item?id=2922756', points: 1638, comments: 308 },
      },
    ]);
  });

  test('an Ask HN post (url "") links to its discussion and its text becomes the snippet', () => {
    const [hit] = parseHackerNewsHits(fixtureResponse('hn-algolia', 'search-ask-hn.json', json));
    assert.equal(hit?.title, "Ask HN: How many people upset over Apple's rules are actually iPhone developers?");
    assert.equal(hit?.url, 'https://news.ycombinator.com/item?id=1256391');
    assert.match(hit?.snippet ?? '', /^It would be interesting to know what percentage of the people in uproar/);
    assert.deepEqual(hit?.extra, { discussionUrl: 'https://news.ycombinator.com/item?id=1256391', points: 57, comments: 84 });
    assert.equal(hit?.publishedAt, '2010-04-11T05:01:43.000Z');
  });

  test("Algolia's 400 refusal passes its message on", () => {
    const response = fixtureResponse('hn-algolia', 'error-400-numeric-filter.json', { status: 400, ...json });
    const failure = failureOf(() => parseHackerNewsHits(response));
    assert.equal(failure.failure, 'bad_answer');
    assert.equal(failure.details?.upstreamStatus, 400);
    assert.match(failure.message, /^Hacker News \(Algolia\): it refused the search \(invalid numeric attribute\(points\), attribute not specified/);
  });

  test('an HTML page instead of JSON is a bad answer', () => {
    const failure = failureOf(() => parseHackerNewsHits(rawResponse('<html><body>502 Bad Gateway</body></html>', { contentType: 'text/html' })));
    assert.match(failure.message, /it answered with an HTML page/);
  });
});

describe('parseHackerNewsStories', () => {
  test('reads a captured search_by_date answer as news stories', () => {
    const stories = parseHackerNewsStories(fixtureResponse('hn-algolia', 'search-by-date-stories.json', json));
    assert.deepEqual(stories, [
      {
        title: 'Judge says concerned about Apple, Google hiring settlement',
        url: 'http://in.reuters.com/article/2014/06/19/apple-google-settlement-idINL2N0P01ZI20140619',
        source: 'in.reuters.com',
        publishedAt: '2014-06-20T03:35:46.000Z',
        points: 1,
        comments: 0,
        discussionUrl: 'https://news.ycombinator.com/item?id=7919424',
        provider: 'hn-algolia',
        rank: 1,
      },
    ]);
  });

  test('a story without a link is sourced to news.ycombinator.com', () => {
    const [story] = parseHackerNewsStories(fixtureResponse('hn-algolia', 'search-ask-hn.json', json));
    assert.equal(story?.url, 'https://news.ycombinator.com/item?id=1256391');
    assert.equal(story?.source, 'news.ycombinator.com');
  });

  test('the www. of a story host is dropped from its source', () => {
    const body = JSON.stringify({ hits: [{ objectID: '1', title: 'T', url: 'https://www.example.org/a', created_at_i: 0 }] });
    assert.equal(parseHackerNewsStories(rawResponse(body))[0]?.source, 'example.org');
  });
});

describe('requests', () => {
  test('searchHackerNews asks /api/v1/search for stories, hitsPerPage = limit', async () => {
    const caller = new RecordingCaller(fixtureResponse('hn-algolia', 'search-stories.json', json));
    const answer = await searchHackerNews(caller, 'apple', 5, signal);
    const { provider, request } = caller.only();
    assert.equal(provider, hnAlgolia);
    assert.equal(request.path, '/api/v1/search');
    assert.deepEqual(request.query, { query: 'apple', tags: 'story', hitsPerPage: 5 });
    assert.deepEqual(request.acceptStatuses, [400]);
    assert.equal(answer.value.length, 1);
    assert.equal(answer.source.attribution, 'Hacker News via the Algolia HN Search API');
  });

  test('searchHackerNewsStories asks search_by_date with a created_at_i filter', async () => {
    const caller = new RecordingCaller(fixtureResponse('hn-algolia', 'search-by-date-stories.json', json));
    await searchHackerNewsStories(caller, 'apple', 30, signal, 1_700_000_000.9);
    const { request } = caller.only();
    assert.equal(request.path, '/api/v1/search_by_date');
    assert.deepEqual(request.query, { query: 'apple', tags: 'story', hitsPerPage: 30, numericFilters: 'created_at_i>1700000000' });
  });

  test('hackerNewsFrontPage asks for the front_page tag and cuts to the limit', async () => {
    const caller = new RecordingCaller(fixtureResponse('hn-algolia', 'search-by-date-stories.json', json));
    const answer = await hackerNewsFrontPage(caller, 0, signal);
    const { request } = caller.only();
    assert.equal(request.path, '/api/v1/search');
    assert.deepEqual(request.query, { tags: 'front_page', hitsPerPage: 1 });
    assert.deepEqual(answer.value, []);
  });

  test('the refusal reaches the parser', async () => {
    const caller = new RecordingCaller(fixtureResponse('hn-algolia', 'error-400-numeric-filter.json', { status: 400, ...json }));
    await assert.rejects(searchHackerNews(caller, 'x', 5, signal), /it refused the search/);
  });

  test('is on by default at hn.algolia.com', () => {
    assert.equal(hnAlgolia.baseUrl.env, 'TOOLGATE_HN_ALGOLIA_URL');
    assert.equal(hnAlgolia.baseUrl.default, 'https://hn.algolia.com');
  });
});
