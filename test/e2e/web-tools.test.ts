// The web tools paid for end to end on anvil, with every provider and page replayed by a loopback
// fixture server: results a caller can use, refusals of forbidden URLs that cost nothing, and
// provider failures that are named and never settled.
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, beforeEach, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { PrivateKeyAccount } from 'viem';
import type { ResolvedAddress } from '../../src/upstream/http/http-types.ts';
import type { TestGateway } from '../support/gateway-harness.ts';
import { startTestGateway } from '../support/gateway-harness.ts';
import { assertNotCharged, payFor as payForCall, withQuery } from '../support/paid-call.ts';
import { fundedPayer, paymentHeader, readPaymentRequired, signPayment } from '../support/payments.ts';
import type { FixtureServer } from '../support/fixture-server.ts';
import { startFixtureServer } from '../support/fixture-server.ts';
import type { WebFixtures } from '../support/web-fixtures.ts';
import { startWebFixtures, unlimitedProviders } from '../support/web-fixtures.ts';

let web: WebFixtures;
/** Listens on 127.0.0.2, which the SSRF allow list (127.0.0.1/32) does not open: it must never be reached. */
let trap: FixtureServer;
let t: TestGateway;

/** Test DNS: a name that resolves to a private address. */
const hosts: Record<string, ResolvedAddress[]> = {
  'intranet.test': [{ address: '10.20.30.40', family: 4 }],
};

before(async () => {
  web = await startWebFixtures();
  trap = await startFixtureServer('127.0.0.2');
  t = await startTestGateway({
    env: web.env,
    providers: unlimitedProviders,
    resolveHost: async (hostname) => {
      const found = hosts[hostname];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
      return found;
    },
  });
});
after(async () => {
  await t?.close();
  await web?.close();
  await trap?.close();
});
beforeEach(() => {
  web.restore();
  trap.reset();
});

const payFor = (pathWithQuery: string, payer?: PrivateKeyAccount) => payForCall(t, pathWithQuery, payer ? { payer } : {});
const q = withQuery;

describe('browse_web_stealth', () => {
  test('a static article: Markdown of the main content and its metadata, settled on chain', async () => {
    const call = await payFor(q('/api/browse', { url: web.page('article.html') }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.settled, true);
    assert.equal(call.spent, 5000n);
    assert.equal(call.body.rendered, false);
    assert.equal(call.body.status, 200);
    assert.equal(call.body.finalUrl, web.page('article.html'));
    assert.match(String(call.body.title), /sourdough starter/i);
    assert.match(String(call.body.markdown), /^#{1,3} /m, 'headings survive as Markdown');
    assert.ok(Number(call.body.wordCount) > 50);
  });

  test('a JavaScript-only page is rendered in Chromium through the guard, and says so', { skip: !existsSync('/usr/bin/chromium') && 'Chromium is not installed (.ci/run installs it)' }, async () => {
    const call = await payFor(q('/api/browse', { url: web.page('js-app.html') }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.body.rendered, true, String(call.body.renderNote));
    assert.match(String(call.body.markdown), /glacier retreated forty metres/);
    const paths = web.server.requests.map((r) => r.path);
    assert.ok(paths.includes('/pages/js-app.js') && paths.includes('/pages/js-app-data.json'), 'the page\'s own requests went through the gateway\'s fetcher');
    assert.equal(paths.filter((path) => path === '/pages/js-app.html').length, 1, 'the document read statically is the one rendered: fetched once');
  });

  test('plain text is read as it is', async () => {
    const call = await payFor(q('/api/browse', { url: web.page('notes.txt') }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.match(String(call.body.markdown), /Second paragraph of the notes/);
  });

  test('a binary download is refused, not read, and not charged', async () => {
    const call = await payFor(q('/api/browse', { url: web.page('logo.png') }));
    assert.equal(call.status, 422);
    assert.match(String(call.body.message), /image\/png/);
    assertNotCharged(call);
  });

  test('an error page is a failure, not a result: not charged', async () => {
    const call = await payFor(q('/api/browse', { url: web.page('missing.html') }));
    assert.equal(call.status, 502);
    assert.match(String(call.body.message), /answered HTTP 404/);
    assertNotCharged(call);
  });

  test('a URL naming a forbidden address is refused before payment is even asked: 400, free, nothing sent', async () => {
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::1]/', 'http://2130706433/', `http://127.0.0.2:${trap.port}/`, 'http://user:pw@intranet.test/', 'file:///etc/passwd']) {
      const response = await fetch(`${t.baseUrl}${q('/api/browse', { url })}`);
      const body = (await response.json()) as { error: string; message: string; charged: boolean };
      assert.equal(response.status, 400, `${url}: ${JSON.stringify(body)}`);
      assert.equal(response.headers.get('payment-required'), null, `${url}: no payment asked`);
      assert.equal(body.charged, false);
      assert.match(body.message, /url/);
    }
    assert.equal(trap.requests.length, 0);
  });

  test('a redirect to a private address is refused after payment: 400, not charged, the private host never reached', async () => {
    web.server.on('/pages/moved', { status: 302, headers: { location: `http://127.0.0.2:${web.server.port}/admin` } });
    const call = await payFor(q('/api/browse', { url: web.page('moved') }));
    assert.equal(call.status, 400, JSON.stringify(call.body));
    assert.equal(call.body.error, 'url_refused');
    assertNotCharged(call);
    assert.equal(trap.requests.length, 0);
  });

  test('a host name that resolves to a private address is refused: not charged', async () => {
    const call = await payFor(q('/api/browse', { url: `http://intranet.test:${web.server.port}/` }));
    assert.equal(call.status, 400, JSON.stringify(call.body));
    assert.match(String(call.body.message), /10\.20\.30\.40/);
    assertNotCharged(call);
  });
});

describe('distill_document by URL', () => {
  test('only url: the page is fetched through the browse pipeline, then distilled', async () => {
    const payer = await fundedPayer(t.devChain, '1');
    const body = JSON.stringify({ url: web.page('article.html') });
    const send = (headers: Record<string, string> = {}) => fetch(`${t.baseUrl}/api/distill`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body });
    const requirements = readPaymentRequired(await send()).accepts[0]!;
    const paid = await send({ 'PAYMENT-SIGNATURE': paymentHeader(await signPayment(payer, requirements)) });
    const result = (await paid.json()) as { title: string; fetched: { finalUrl: string; status: number } };
    assert.equal(paid.status, 200, JSON.stringify(result));
    assert.equal(result.fetched.status, 200);
    assert.match(result.title, /sourdough/i);
  });

  test('neither content nor url: 400 naming content, before payment', async () => {
    const response = await fetch(`${t.baseUrl}/api/distill`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(response.status, 400);
    assert.match(((await response.json()) as { message: string }).message, /content is required unless url is given/);
  });
});

describe('extract_opengraph_metadata', () => {
  test('a preview with absolute URLs and where each value came from', async () => {
    const call = await payFor(q('/api/web/opengraph', { url: web.page('article.html') }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    const preview = call.body.preview as { title: string; image: string };
    assert.equal(preview.title, 'Tending a sourdough starter through winter');
    assert.match(preview.image, /^https?:\/\//);
    assert.equal((call.body.from as { title: string }).title, 'og:title');
  });
});

describe('lookup_wayback_snapshot', () => {
  test('an archived URL: the closest snapshot, its time in ISO 8601, and the source', async () => {
    const call = await payFor(q('/api/web/wayback', { url: 'http://example.com/' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.body.archived, true);
    const snapshot = call.body.snapshot as { archiveUrl: string; timestamp: string };
    assert.match(snapshot.archiveUrl, /^https:\/\/web\.archive\.org\/web\/\d{14}\//);
    assert.match(snapshot.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/);
    assert.equal((call.body.source as { provider: string }).provider, 'wayback');
    assert.equal(web.server.requests.find((r) => r.path.endsWith('/wayback/available'))?.query.get('url'), 'http://example.com/');
  });

  test('a URL never archived is an answer, and is charged', async () => {
    web.server.on('/wayback-api/wayback/available', { status: 200, headers: { 'content-type': 'application/json' }, body: '{"archived_snapshots":{}}' });
    const call = await payFor(q('/api/web/wayback', { url: 'https://never-archived.example/' }));
    assert.equal(call.status, 200);
    assert.equal(call.body.archived, false);
    assert.equal(call.settled, true);
  });
});

describe('search_web', () => {
  test('the first configured engine (SearXNG) answers: ranked results with domain and engine', async () => {
    const call = await payFor(q('/api/search', { q: 'climate', limit: '3' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.body.engine, 'searxng');
    const results = call.body.results as { position: number; url: string; domain: string; engine: string }[];
    assert.equal(results.length, 3);
    assert.deepEqual(results.map((r) => r.position), [1, 2, 3]);
    for (const result of results) assert.ok(result.url.startsWith('http') && result.domain && result.engine === 'searxng');
  });

  test('when SearXNG fails, Brave answers, and the failure is listed', async () => {
    web.server.on('/searxng/search', { status: 500, body: 'boom' });
    const call = await payFor(q('/api/search', { q: 'brave search' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.body.engine, 'brave');
    assert.match(JSON.stringify(call.body.failedEngines), /SearXNG: it answered HTTP 500/);
    assert.equal(web.server.requests.find((r) => r.path.startsWith('/brave/'))?.headers['x-subscription-token'], 'test-brave-key');
  });

  test('when SearXNG and Brave fail, DuckDuckGo answers, its redirect links unwrapped', async () => {
    web.server.on('/searxng/search', { status: 503, body: 'down' });
    web.server.on('/brave/res/v1/web/search', { status: 500, body: 'down' });
    const call = await payFor(q('/api/search', { q: 'ddg' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.body.engine, 'duckduckgo');
    for (const result of call.body.results as { url: string }[]) assert.doesNotMatch(result.url, /duckduckgo\.com\/l\//);
  });
});

describe('get_trending_news', () => {
  interface Story { title: string; url: string; source: string; publishedAt: string; position: number; providers: string[]; points?: number; discussionUrl?: string }

  test('without a topic: the Hacker News front page, each story with its source, time, points and discussion', async () => {
    const call = await payFor(q('/api/news/trending', { limit: '5' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    const stories = call.body.stories as Story[];
    assert.ok(stories.length > 0 && stories.length <= 5);
    for (const story of stories) {
      assert.ok(story.title && story.url.startsWith('http') && story.source);
      assert.match(story.publishedAt, /^\d{4}-\d{2}-\d{2}T/);
      assert.match(story.discussionUrl ?? '', /^https:\/\/news\.ycombinator\.com\/item\?id=\d+$/);
    }
    assert.equal(web.server.requests.find((r) => r.path === '/hn/api/v1/search')?.query.get('tags'), 'front_page');
  });

  test('with a topic: Hacker News and GDELT merged and ranked, both engines reported', async () => {
    const call = await payFor(q('/api/news/trending', { topic: 'vizhinjam port', limit: '10' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    const stories = call.body.stories as Story[];
    assert.ok(stories.some((s) => s.providers.includes('gdelt')) && stories.some((s) => s.providers.includes('hn-algolia')));
    assert.deepEqual(stories.map((s) => s.position), stories.map((_, i) => i + 1));
    assert.deepEqual((call.body.engines as { engine: string; status: string }[]).map((e) => `${e.engine}:${e.status}`).sort(), ['gdelt:ok', 'hn-algolia:ok']);
    const gdeltRequest = web.server.requests.find((r) => r.path === '/gdelt/api/v2/doc/doc');
    assert.equal(gdeltRequest?.query.get('mode'), 'ArtList');
    assert.equal(gdeltRequest?.query.get('format'), 'json');
  });

  test('one provider failing does not fail the call: GDELT\'s rate-limit notice is listed, Hacker News answers', async () => {
    web.server.on('/gdelt/api/v2/doc/doc', { status: 200, headers: { 'content-type': 'text/html' }, body: 'Please limit requests to one every 5 seconds or contact kalev.leetaru5@gmail.com for larger queries.' });
    const call = await payFor(q('/api/news/trending', { topic: 'apple google settlement' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.settled, true);
    const gdeltReport = (call.body.engines as { engine: string; status: string; error?: string }[]).find((e) => e.engine === 'gdelt');
    assert.equal(gdeltReport?.status, 'failed');
    assert.match(gdeltReport?.error ?? '', /GDELT/);
    assert.ok((call.body.stories as Story[]).length > 0);
  });
});

describe('search_deep_meta', () => {
  interface Fused { position: number; url: string; domain: string; score: number; foundBy: { engine: string; rank: number }[] }
  interface Engine { engine: string; status: string; results?: number; error?: string }

  test('every engine at once, fused by reciprocal rank, each result saying which engines found it at which rank', async () => {
    const call = await payFor(q('/api/search/deep', { q: 'transferWithAuthorization', limit: '20' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    const engines = call.body.engines as Engine[];
    assert.deepEqual(engines.map((e) => e.engine).sort(), ['brave', 'duckduckgo', 'hn-algolia', 'searxng', 'stackexchange', 'wikipedia']);
    assert.ok(engines.every((e) => e.status === 'ok'), JSON.stringify(engines));
    const results = call.body.results as Fused[];
    assert.equal(results.length, 20);
    assert.deepEqual(results.map((r) => r.position), results.map((_, i) => i + 1));
    for (let i = 1; i < results.length; i += 1) assert.ok(results[i - 1]!.score >= results[i]!.score, 'ranked by fused score');
    for (const result of results) assert.ok(result.foundBy.length >= 1 && result.foundBy.every((f) => f.rank >= 1));
    assert.ok(new Set(results.map((r) => r.url)).size === results.length, 'no URL twice');
    assert.equal((call.body.sources as unknown[]).length, 6);
  });

  test('one engine failing and one too slow do not fail the call; both are listed with their reason', async () => {
    web.server.on('/se/2.3/search/advanced', { status: 500, body: 'boom' });
    web.server.on('/wikipedia-en/w/rest.php/v1/search/page', { status: 200, headers: { 'content-type': 'application/json' }, body: '{"pages":[]}', delayMs: 2_500 });
    const call = await payFor(q('/api/search/deep', { q: 'partial failure' }));
    assert.equal(call.status, 200, JSON.stringify(call.body));
    assert.equal(call.settled, true);
    const engines = call.body.engines as Engine[];
    assert.match(engines.find((e) => e.engine === 'stackexchange')?.error ?? '', /Stack Exchange: it answered HTTP 500/);
    assert.match(engines.find((e) => e.engine === 'wikipedia')?.error ?? '', /Wikipedia: .*did not answer/);
    assert.ok((call.body.results as Fused[]).length > 0);
  });
});

describe('over MCP', () => {
  test('a forbidden URL is an error result before any payment is asked, naming the address', async () => {
    const client = new Client({ name: 'ssrf-check', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${t.baseUrl}/mcp`)));
    try {
      for (const name of ['browse_web_stealth', 'extract_opengraph_metadata']) {
        const result = (await client.callTool({ name, arguments: { url: `http://169.254.169.254:${web.server.port}/latest/meta-data/` } })) as CallToolResult;
        assert.equal(result.isError, true);
        const body = result.structuredContent as { error: string; message: string; charged: boolean; x402Version?: number };
        assert.equal(body.error, 'url_refused', JSON.stringify(body));
        assert.equal(body.x402Version, undefined, 'no payment was asked for');
        assert.match(body.message, /169\.254\.169\.254 is a cloud metadata address/);
        assert.equal(body.charged, false);
      }
    } finally {
      await client.close();
    }
  });
});
