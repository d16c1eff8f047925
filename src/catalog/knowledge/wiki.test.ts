import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { RawRequest, RawResponse } from '../../upstream/http/http-types.ts';
import { fixtureBytes } from '../../upstream/providers/recording-caller.ts';
import { wikipedia } from '../../upstream/providers/wikipedia.ts';
import { Upstream } from '../../upstream/upstream.ts';
import type { ToolContext } from '../tool.ts';
import { ToolError } from '../tool.ts';
import { validateInput } from '../validate-input.ts';
import { wikiTool } from './wiki.ts';

type Reply = (url: URL) => { status?: number; body: Buffer | string };

const fixture = (file: string) => fixtureBytes('wikipedia', file);
const summaryPath = '/api/rest_v1/page/summary/';

/** The real upstream layer, answering from `reply` by URL. */
function gateway(reply: Reply) {
  const requests: RawRequest[] = [];
  const upstream = new Upstream([wikipedia], { userAgent: 'toolgate-test', baseUrls: {}, apiKeys: {} }, async (request): Promise<RawResponse> => {
    requests.push(request);
    const { status = 200, body } = reply(request.url);
    return { url: request.url, status, headers: { 'content-type': 'application/json' }, body: Buffer.from(body), truncated: false, remoteAddress: undefined };
  });
  const run = async (raw: Record<string, unknown>) => {
    const verdict = validateInput(wikiTool.input, raw);
    assert.ok(verdict.ok, JSON.stringify(verdict));
    const deadline = Date.now() + 20_000;
    const ctx = { signal: new AbortController().signal, now: () => new Date(), caller: { ip: '127.0.0.1' }, deadline, upstream: upstream.forCall(deadline) } as unknown as ToolContext;
    return (await wikiTool.handler!(verdict.value, ctx)) as Record<string, unknown>;
  };
  return { run, requests };
}

const notFound = { status: 404, body: fixture('summary-not-found-404.json') };

/** A search answer of two pages: the documented Jupiter object and MediaWiki's own example page (not a capture of one answer). */
function twoHits(): string {
  const first = JSON.parse(fixture('search-result-object-documented.json').toString()).pages[0];
  const second = JSON.parse(fixture('search-results.json').toString()).pages[0];
  return JSON.stringify({ pages: [first, second] });
}

describe('lookup_wiki_fact input', () => {
  test('lang must be a Wikipedia language edition; case is ignored', () => {
    const verdict = validateInput(wikiTool.input, { query: 'Tokyo', lang: 'xx' });
    assert.equal(verdict.ok, false);
    assert.match(verdict.ok ? '' : verdict.issues[0]!.message, /^lang: xx is not a Wikipedia language edition/);
    for (const lang of ['EN', 'simple', 'zh-min-nan', 'be-tarask']) assert.equal(validateInput(wikiTool.input, { query: 'x', lang }).ok, true, lang);
    const defaults = validateInput(wikiTool.input, { query: '  Tokyo ' });
    assert.deepEqual(defaults.ok && defaults.value, { query: 'Tokyo', lang: 'en' });
    assert.equal(validateInput(wikiTool.input, { query: '   ' }).ok, false);
  });
});

describe('lookup_wiki_fact', () => {
  test('an exact title: the summary with its links, revision, Wikidata id and attribution', async () => {
    const { run, requests } = gateway(() => ({ body: fixture('summary-tokyo.json') }));
    const answer = await run({ query: 'Tokyo' });
    assert.equal(requests.length, 1);
    assert.equal(requests[0]!.url.href, 'https://en.wikipedia.org/api/rest_v1/page/summary/Tokyo');
    assert.equal(answer.matchedBy, 'title');
    assert.equal(answer.type, 'standard');
    assert.equal(answer.title, 'Tokyo');
    assert.equal(answer.description, 'Capital and prefecture of Japan');
    assert.match(String(answer.extract), /^Tokyo , officially Tokyo Metropolis/);
    assert.equal(answer.url, 'https://en.wikipedia.org/wiki/Tokyo');
    assert.equal(answer.permanentUrl, 'https://en.wikipedia.org/w/index.php?title=Tokyo&oldid=871928272');
    assert.equal(answer.lastModified, '2018-12-04T06:47:20Z');
    assert.equal(answer.wikidataId, 'Q1490');
    assert.deepEqual(answer.thumbnail, { url: 'https://upload.wikimedia.org/wikipedia/commons/thumb/b/b2/Skyscrapers_of_Shinjuku_2009_January.jpg/320px-Skyscrapers_of_Shinjuku_2009_January.jpg', width: 320, height: 171 });
    const attribution = answer.attribution as Record<string, string>;
    assert.equal(attribution.license, 'CC BY-SA 4.0');
    assert.match(attribution.text!, /^Text from the Wikipedia article "Tokyo" \(https:\/\/en\.wikipedia\.org\/wiki\/Tokyo\), by its contributors/);
    assert.equal(answer.candidates, undefined);
    assert.equal((answer.sources as unknown[]).length, 1);
  });

  test('no such title: the best search match is summarised and the others listed', async () => {
    const { run, requests } = gateway((url) => {
      if (url.pathname === `${summaryPath}great%20red%20spot%20planet`.replaceAll('%20', '_')) return notFound;
      if (url.pathname === '/w/rest.php/v1/search/page') return { body: twoHits() };
      return { body: fixture('summary-tokyo.json') };
    });
    const answer = await run({ query: 'great red spot planet' });
    assert.deepEqual(requests.map((r) => r.url.pathname), [`${summaryPath}great_red_spot_planet`, '/w/rest.php/v1/search/page', `${summaryPath}Jupiter`]);
    assert.equal(answer.matchedBy, 'search');
    assert.deepEqual(answer.candidates, [{ title: 'Mobile game', description: 'Video game played on a mobile device', url: 'https://en.wikipedia.org/wiki/Mobile_game' }]);
    assert.equal((answer.sources as unknown[]).length, 3);
  });

  test('a disambiguation page answers with its options', async () => {
    const { run, requests } = gateway((url) => (url.pathname === '/w/api.php' ? { body: fixture('links-david-tepper.json') } : { body: fixture('summary-dart-disambiguation.json') }));
    const answer = await run({ query: 'Dart' });
    assert.equal(requests[1]!.url.searchParams.get('titles'), 'Dart');
    assert.equal(answer.type, 'disambiguation');
    assert.equal(answer.disambiguation, true);
    const options = answer.options as { title: string; url: string }[];
    assert.equal(options.length, 10);
    assert.deepEqual(options[0], { title: '1987 stock market crash', url: 'https://en.wikipedia.org/wiki/1987_stock_market_crash' });
    assert.match(String(answer.note), /disambiguation page/);
  });

  test('a query that cannot be a title goes straight to search', async () => {
    const { run, requests } = gateway((url) => (url.pathname === '/w/rest.php/v1/search/page' ? { body: fixture('search-results.json') } : { body: fixture('summary-tokyo.json') }));
    await run({ query: 'C# {generics}', lang: 'de' });
    assert.equal(requests[0]!.url.href, 'https://de.wikipedia.org/w/rest.php/v1/search/page?q=C%23+%7Bgenerics%7D&limit=6');
  });

  test('nothing found is a 404', async () => {
    const { run } = gateway((url) => (url.pathname === '/w/rest.php/v1/search/page' ? { body: fixture('no-results.json') } : notFound));
    await assert.rejects(run({ query: 'qwxzzyq' }), (error: unknown) => error instanceof ToolError && error.status === 404 && error.code === 'not_found' && /qwxzzyq/.test(error.message));
  });

  test('an Action API error delivered as 200 fails the call as a bad answer', async () => {
    const { run } = gateway((url) => (url.pathname === '/w/api.php' ? { body: fixture('action-api-error-200.json') } : { body: fixture('summary-dart-disambiguation.json') }));
    await assert.rejects(run({ query: 'Dart' }), (error: unknown) => error instanceof ToolError && error.status === 502 && /^Wikipedia: the Action API refused/.test(error.message));
  });
});
