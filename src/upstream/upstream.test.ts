// The upstream layer against a loopback provider that misbehaves on purpose: every fault becomes
// the right status with the provider named, retries happen only where they are safe and fit the
// deadline, and the cache serves a stale answer, marked, only when the provider fails.
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, test } from 'node:test';
import { jsonAnswer, startFixtureServer, type FixtureServer } from '../../test/support/fixture-server.ts';
import { rawFetch } from './http/raw-fetch.ts';
import type { ProviderDefinition } from './provider.ts';
import { defineProvider } from './provider.ts';
import { badAnswer, UpstreamError } from './upstream-errors.ts';
import { providerRedirectGuard } from './guard/provider-redirect-guard.ts';
import { Upstream, type RedirectGuard } from './upstream.ts';

let server: FixtureServer;
before(async () => {
  server = await startFixtureServer();
});
after(() => server.close());
beforeEach(() => server.reset());

const provider = (overrides: Partial<ProviderDefinition> = {}): ProviderDefinition =>
  defineProvider({
    id: 'testprov',
    name: 'Test Provider',
    baseUrl: { env: 'TEST_PROVIDER_URL' },
    timeoutMs: 1_000,
    maxBytes: 10_000,
    rateLimit: { requests: 100, perMs: 1_000, concurrency: 10, maxQueueMs: 1_000 },
    cacheTtlMs: 60_000,
    cacheReason: 'test',
    staleForMs: 600_000,
    attribution: 'Data from Test Provider',
    termsUrl: 'https://provider.test/terms',
    docsUrl: 'https://provider.test/docs',
    ...overrides,
  });

function upstreamFor(definition: ProviderDefinition, clock?: () => number): Upstream {
  return new Upstream([definition], { userAgent: 'toolgate/test (+http://gateway.test; ops@gateway.test)', baseUrls: { testprov: `${server.origin}/api` }, apiKeys: {} }, rawFetch, clock);
}

/** The provider's documented answer { items: [...] }; { error } inside a 200 is a failure. */
const parseItems = (response: { body: Buffer }) => {
  const json = JSON.parse(response.body.toString('utf8')) as { items?: string[]; error?: string };
  if (json.error) throw badAnswer('Test Provider', `it reported an error: ${json.error}`);
  if (!Array.isArray(json.items)) throw badAnswer('Test Provider', 'no items array');
  return json.items;
};

async function failure(promise: Promise<unknown>): Promise<UpstreamError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof UpstreamError, `expected an UpstreamError, got ${String(error)}`);
    return error;
  }
  assert.fail('expected the call to fail');
}

const signal = () => new AbortController().signal;
const soon = (ms = 5_000) => Date.now() + ms;

describe('a provider call', () => {
  test('builds the URL from the base setting, sends the identifying User-Agent, names the source', async () => {
    server.on('/api/search', jsonAnswer({ items: ['a', 'b'] }));
    const answer = await upstreamFor(provider()).forCall(soon()).call(provider(), { path: '/search', query: { q: 'x y', n: 2, skip: undefined } }, parseItems, signal());
    assert.deepEqual(answer.value, ['a', 'b']);
    assert.equal(server.requests[0]!.query.get('q'), 'x y');
    assert.equal(server.requests[0]!.query.has('skip'), false);
    assert.match(String(server.requests[0]!.headers['user-agent']), /^toolgate\/test .*ops@gateway\.test/);
    assert.equal(answer.source.provider, 'testprov');
    assert.equal(answer.source.attribution, 'Data from Test Provider');
    assert.equal(answer.source.stale, undefined);
    assert.ok(!Number.isNaN(Date.parse(answer.source.fetchedAt)));
  });

  test('sends the API key in its header and never shows it', async () => {
    const keyed = provider({ apiKey: { env: 'TEST_KEY', in: 'header', name: 'x-api-key' } });
    const upstream = new Upstream([keyed], { userAgent: 'ua', baseUrls: { testprov: server.origin }, apiKeys: { testprov: 'sekret' } }, rawFetch);
    server.on('/s', jsonAnswer({ items: [] }));
    const answer = await upstream.forCall(soon()).call(keyed, { path: '/s', query: { api_key: 'sekret2' } }, parseItems, signal());
    assert.equal(server.requests[0]!.headers['x-api-key'], 'sekret');
    assert.doesNotMatch(answer.source.url, /sekret/);
  });

  test('an unconfigured provider is a 503 naming the setting, and nothing is sent', async () => {
    const keyed = provider({ apiKey: { env: 'TEST_KEY', in: 'header', name: 'x-api-key' } });
    const upstream = new Upstream([keyed], { userAgent: 'ua', baseUrls: { testprov: server.origin }, apiKeys: {} }, rawFetch);
    assert.equal(upstream.isConfigured(keyed), false);
    const error = await failure(upstream.forCall(soon()).call(keyed, { path: '/s' }, parseItems, signal()));
    assert.equal(error.status, 503);
    assert.match(error.message, /Test Provider: not configured .*TEST_KEY/);
    assert.equal(server.requests.length, 0);
  });
});

describe('faults become clear, uncharged errors', () => {
  const cases: { name: string; answer: Parameters<FixtureServer['on']>[1]; status: number; message: RegExp; retryAfter?: number }[] = [
    { name: '429 with Retry-After', answer: jsonAnswer({ error: 'slow down' }, 429, { 'retry-after': '120' }), status: 503, message: /rate-limiting/, retryAfter: 120 },
    { name: '503 without Retry-After', answer: { status: 503, body: 'maintenance' }, status: 503, message: /temporarily unavailable/, retryAfter: 10 },
    { name: '500', answer: { status: 500, body: 'oops' }, status: 502, message: /answered HTTP 500/ },
    { name: 'malformed JSON', answer: { status: 200, headers: { 'content-type': 'application/json' }, body: '{"items": [' }, status: 502, message: /could not be read/ },
    { name: 'oversize body', answer: jsonAnswer({ items: ['x'.repeat(20_000)] }), status: 502, message: /larger than the 10000-byte limit/ },
    { name: 'a 200 that is really an error', answer: jsonAnswer({ error: 'daily quota exceeded' }), status: 502, message: /daily quota exceeded/ },
    { name: 'connection reset', answer: { reset: true }, status: 503, message: /could not be reached/ },
    { name: 'timeout', answer: { delayMs: 1_500, ...jsonAnswer({ items: [] }) }, status: 504, message: /did not answer within 1000 ms/ },
  ];
  for (const c of cases) {
    test(c.name, async () => {
      server.on('/api/x', c.answer);
      const error = await failure(upstreamFor(provider()).forCall(soon(2_500)).call(provider(), { path: '/x' }, parseItems, signal()));
      assert.equal(error.status, c.status);
      assert.match(error.message, /^Test Provider: /);
      assert.match(error.message, c.message);
      assert.match(error.message, /You were not charged/);
      if (c.retryAfter !== undefined) assert.equal(error.retryAfterSeconds, c.retryAfter);
    });
  }
});

describe('retries', () => {
  test('a GET is retried after a 503 and a reset, and succeeds', async () => {
    server.once('/api/r', { status: 503, body: 'busy' });
    server.once('/api/r', { reset: true });
    server.on('/api/r', jsonAnswer({ items: ['ok'] }));
    const answer = await upstreamFor(provider()).forCall(soon()).call(provider(), { path: '/r' }, parseItems, signal());
    assert.deepEqual(answer.value, ['ok']);
    assert.equal(server.requests.length, 3);
  });

  test('Retry-After is honoured when it fits the deadline', async () => {
    server.once('/api/r', jsonAnswer({}, 429, { 'retry-after': '1' }));
    server.on('/api/r', jsonAnswer({ items: ['late'] }));
    const started = Date.now();
    const answer = await upstreamFor(provider()).forCall(soon(4_000)).call(provider(), { path: '/r' }, parseItems, signal());
    assert.deepEqual(answer.value, ['late']);
    assert.ok(Date.now() - started >= 950, 'waited for Retry-After');
  });

  test('a Retry-After longer than a call waits for one provider (3 s) is not waited for, even within the deadline', async () => {
    server.on('/api/r', jsonAnswer({}, 503, { 'retry-after': '5' }));
    const started = Date.now();
    const error = await failure(upstreamFor(provider()).forCall(soon(20_000)).call(provider(), { path: '/r' }, parseItems, signal()));
    assert.ok(Date.now() - started < 1_000);
    assert.equal(error.retryAfterSeconds, 5);
    assert.equal(server.requests.length, 1);
  });

  test('a Retry-After beyond the deadline is not waited for: 503 at once with it', async () => {
    server.on('/api/r', jsonAnswer({}, 429, { 'retry-after': '30' }));
    const started = Date.now();
    const error = await failure(upstreamFor(provider()).forCall(soon(2_000)).call(provider(), { path: '/r' }, parseItems, signal()));
    assert.ok(Date.now() - started < 1_000);
    assert.equal(error.retryAfterSeconds, 30);
    assert.equal(server.requests.length, 1);
  });

  test('a POST is never retried', async () => {
    server.on('/api/p', { status: 503, body: 'busy' }, 'POST');
    await failure(upstreamFor(provider()).forCall(soon()).call(provider(), { path: '/p', method: 'POST', form: { a: '1' } }, parseItems, signal()));
    assert.equal(server.requests.length, 1);
    assert.equal(server.requests[0]!.body, 'a=1');
  });

  test('a POST that only reads (idempotent) carries its JSON body and is retried like a GET', async () => {
    server.once('/api/rpc', { status: 503, body: 'busy' }, 'POST');
    server.on('/api/rpc', jsonAnswer({ items: ['read'] }), 'POST');
    const request = { path: '/rpc', method: 'POST' as const, json: { jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }, idempotent: true };
    const answer = await upstreamFor(provider()).forCall(soon()).call(provider(), request, parseItems, signal());
    assert.deepEqual(answer.value, ['read']);
    assert.equal(server.requests.length, 2);
    assert.equal(server.requests[1]!.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(server.requests[1]!.body), request.json);
  });

  test('JSON bodies are part of the cache key: another body is asked again, the same one is not', async () => {
    server.on('/api/rpc', jsonAnswer({ items: ['x'] }), 'POST');
    const upstream = upstreamFor(provider());
    const ask = (id: number) => upstream.forCall(soon()).call(provider(), { path: '/rpc', method: 'POST', json: { id } }, parseItems, signal());
    await ask(1);
    await ask(1);
    await ask(2);
    assert.equal(server.requests.length, 2);
  });

  test('a 500 or a bad answer is not retried', async () => {
    server.on('/api/e', { status: 500, body: 'no' });
    await failure(upstreamFor(provider()).forCall(soon()).call(provider(), { path: '/e' }, parseItems, signal()));
    assert.equal(server.requests.length, 1);
  });
});

describe('the cache', () => {
  test('a fresh answer is served without asking again', async () => {
    const upstream = upstreamFor(provider());
    server.on('/api/c', jsonAnswer({ items: ['one'] }));
    await upstream.forCall(soon()).call(provider(), { path: '/c', query: { q: 1 } }, parseItems, signal());
    const second = await upstream.forCall(soon()).call(provider(), { path: '/c', query: { q: 1 } }, parseItems, signal());
    assert.deepEqual(second.value, ['one']);
    assert.equal(server.requests.length, 1);
    await upstream.forCall(soon()).call(provider(), { path: '/c', query: { q: 2 } }, parseItems, signal());
    assert.equal(server.requests.length, 2, 'another query is another entry');
  });

  test('past its TTL it is asked again; when the provider then fails, the old answer comes back marked stale with its time', async () => {
    let now = Date.parse('2026-11-23T10:00:00Z');
    const upstream = upstreamFor(provider(), () => now);
    server.on('/api/c', jsonAnswer({ items: ['old'] }));
    const first = await upstream.forCall(Date.now() + 5_000).call(provider(), { path: '/c' }, parseItems, signal());
    now += 120_000;
    server.on('/api/c', { status: 500, body: 'down' });
    const stale = await upstream.forCall(Date.now() + 5_000).call(provider(), { path: '/c' }, parseItems, signal());
    assert.deepEqual(stale.value, ['old']);
    assert.equal(stale.source.stale, true);
    assert.equal(stale.source.fetchedAt, first.source.fetchedAt);
    assert.equal(server.requests.length, 2, 'the provider was asked before the stale answer was served');
    const health = upstream.health()[0]!;
    assert.equal(health.staleServed, 1);
    assert.equal(health.failures, 1);
  });

  test('an entry past its stale window is not served: the failure is', async () => {
    let now = Date.parse('2026-11-23T10:00:00Z');
    const shortLived = provider({ staleForMs: 60_000 });
    const upstream = upstreamFor(shortLived, () => now);
    server.on('/api/c', jsonAnswer({ items: ['old'] }));
    await upstream.forCall(Date.now() + 5_000).call(shortLived, { path: '/c' }, parseItems, signal());
    now += 60_000 + 60_000 + 1;
    server.on('/api/c', { status: 500, body: 'down' });
    await failure(upstream.forCall(Date.now() + 5_000).call(shortLived, { path: '/c' }, parseItems, signal()));
  });

  test('failures are not cached', async () => {
    const upstream = upstreamFor(provider());
    server.once('/api/c', jsonAnswer({ error: 'quota' }));
    server.on('/api/c', jsonAnswer({ items: ['fine'] }));
    await failure(upstream.forCall(soon()).call(provider(), { path: '/c' }, parseItems, signal()));
    const answer = await upstream.forCall(soon()).call(provider(), { path: '/c' }, parseItems, signal());
    assert.deepEqual(answer.value, ['fine']);
  });
});

describe('admission', () => {
  test('beyond the rate limit a call waits its turn when it fits, and is refused with Retry-After when it does not', async () => {
    const slow = provider({ rateLimit: { requests: 1, perMs: 1_000, concurrency: 1, maxQueueMs: 1_500 } });
    const upstream = upstreamFor(slow);
    server.on('/api/l', jsonAnswer({ items: [] }));
    const call = (q: number, deadline = soon()) => upstream.forCall(deadline).call(slow, { path: '/l', query: { q }, cache: false }, parseItems, signal());
    const started = Date.now();
    await call(1);
    await call(2);
    assert.ok(Date.now() - started >= 950, 'the second request waited a second');
    const error = await failure(Promise.all([call(3), call(4), call(5)]));
    assert.equal(error.status, 503);
    assert.ok((error.retryAfterSeconds ?? 0) >= 1);
    assert.match(error.message, /too many requests/);
  });

  test('a 429 pauses the provider for everyone until its Retry-After', async () => {
    const upstream = upstreamFor(provider());
    server.on('/api/p', jsonAnswer({}, 429, { 'retry-after': '60' }));
    await failure(upstream.forCall(soon(1_000)).call(provider(), { path: '/p', cache: false }, parseItems, signal()));
    server.on('/api/p', jsonAnswer({ items: [] }));
    const error = await failure(upstream.forCall(soon(1_000)).call(provider(), { path: '/p', cache: false }, parseItems, signal()));
    assert.equal(error.status, 503);
    assert.equal(server.requests.length, 1, 'the paused provider was not asked again');
  });
});

describe("the provider's own freshness", () => {
  test('an answer stays fresh for as long as freshFor says, then is asked again', async () => {
    let now = Date.parse('2026-11-23T10:00:00Z');
    const upstream = upstreamFor(provider({ cacheTtlMs: 60_000 }), () => now);
    server.on('/api/f', jsonAnswer({ items: ['x'] }, 200, { expires: new Date(now + 300_000).toUTCString() }));
    const untilExpires = (response: { headers: Readonly<Record<string, string>> }, at: number) => Date.parse(response.headers.expires ?? '') - at;
    const ask = () => upstream.forCall(Date.now() + 5_000).call(provider(), { path: '/f', freshFor: untilExpires }, parseItems, signal());
    await ask();
    now += 240_000; // past the provider's 60 s TTL, within the answer's own 300 s
    await ask();
    assert.equal(server.requests.length, 1, 'served from the cache while the answer said it was fresh');
    now += 61_000;
    await ask();
    assert.equal(server.requests.length, 2, 'asked again once it expired');
  });
});

describe('revalidation', () => {
  test('past its freshness an answer with Last-Modified is asked "changed since?"; a 304 keeps it, fresh again, without a body', async () => {
    let now = Date.parse('2026-11-23T10:00:00Z');
    const upstream = upstreamFor(provider({ cacheTtlMs: 60_000 }), () => now);
    const lastModified = 'Mon, 23 Nov 2026 09:58:00 GMT';
    server.on('/api/r', jsonAnswer({ items: ['forecast'] }, 200, { 'last-modified': lastModified }));
    const ask = () => upstream.forCall(Date.now() + 5_000).call(provider(), { path: '/r' }, parseItems, signal());
    await ask();
    assert.equal(server.requests[0]!.headers['if-modified-since'], undefined, 'the first request is unconditional');
    now += 61_000;
    server.on('/api/r', { status: 304, headers: { 'last-modified': lastModified } });
    const confirmed = await ask();
    assert.equal(server.requests[1]!.headers['if-modified-since'], lastModified);
    assert.deepEqual(confirmed.value, ['forecast']);
    assert.equal(confirmed.source.stale, undefined);
    assert.equal(confirmed.source.fetchedAt, new Date(now).toISOString(), 'confirmed now');
    await ask();
    assert.equal(server.requests.length, 2, 'fresh again after the 304');
    now += 61_000;
    server.on('/api/r', jsonAnswer({ items: ['new forecast'] }));
    assert.deepEqual((await ask()).value, ['new forecast'], 'a changed answer replaces the entry');
  });

  test('a 304 nobody asked for is an error like any other status', async () => {
    server.on('/api/u', { status: 304 });
    const error = await failure(upstreamFor(provider()).forCall(soon()).call(provider(), { path: '/u' }, parseItems, signal()));
    assert.equal(error.status, 502);
  });
});

describe('keys in the query or the form, and optional keys', () => {
  test('a query key is sent and redacted in the source; a form key goes in the body; an optional key may be absent', async () => {
    const inQuery = provider({ apiKey: { env: 'TEST_EMAIL', in: 'query', name: 'de', optional: true } });
    server.on('/q', jsonAnswer({ items: [] }));
    const withKey = new Upstream([inQuery], { userAgent: 'ua', baseUrls: { testprov: server.origin }, apiKeys: { testprov: 'ops@gateway.test' } }, rawFetch);
    const answer = await withKey.forCall(soon()).call(inQuery, { path: '/q', query: { q: 'hi' } }, parseItems, signal());
    assert.equal(server.requests[0]!.query.get('de'), 'ops@gateway.test');
    assert.doesNotMatch(answer.source.url, /ops@gateway/);
    const withoutKey = new Upstream([inQuery], { userAgent: 'ua', baseUrls: { testprov: server.origin }, apiKeys: {} }, rawFetch);
    assert.equal(withoutKey.isConfigured(inQuery), true, 'an optional key does not turn the provider off');
    await withoutKey.forCall(soon()).call(inQuery, { path: '/q', query: { q: 'ho' } }, parseItems, signal());
    assert.equal(server.requests[1]!.query.has('de'), false);

    const inForm = provider({ apiKey: { env: 'TEST_KEY', in: 'form', name: 'api_key' } });
    server.on('/t', jsonAnswer({ items: [] }), 'POST');
    const form = new Upstream([inForm], { userAgent: 'ua', baseUrls: { testprov: server.origin }, apiKeys: { testprov: 'sekret' } }, rawFetch);
    await form.forCall(soon()).call(inForm, { path: '/t', method: 'POST', form: { q: 'hello' } }, parseItems, signal());
    assert.deepEqual(Object.fromEntries(new URLSearchParams(server.requests[2]!.body)), { q: 'hello', api_key: 'sekret' });
  });
});

describe('redirects a request asked to follow', () => {
  let registry: FixtureServer;
  before(async () => {
    registry = await startFixtureServer();
  });
  after(() => registry.close());

  const guardAllowing = (allow: string[]) =>
    providerRedirectGuard({ allowedPorts: [new URL(registry.origin).port].map(Number), allow, resolve: async () => [{ address: '127.0.0.1', family: 4 }] });
  const keyed = provider({ apiKey: { env: 'TEST_KEY', in: 'header', name: 'x-api-key' } });
  const upstreamWith = (guard?: RedirectGuard) =>
    new Upstream([keyed], { userAgent: 'ua', baseUrls: { testprov: `${server.origin}/api` }, apiKeys: { testprov: 'sekret' } }, rawFetch, Date.now, guard);

  test('the hop to another host is checked by the guard, followed, and gets no key', async () => {
    registry.reset();
    server.on('/api/domain/example.com', { status: 302, headers: { location: `${registry.origin}/rdap/domain/example.com` } });
    registry.on('/rdap/domain/example.com', jsonAnswer({ items: ['registry'] }));
    const answer = await upstreamWith(guardAllowing(['127.0.0.1/32'])).forCall(soon()).call(keyed, { path: '/domain/example.com', followRedirects: 2 }, parseItems, signal());
    assert.deepEqual(answer.value, ['registry']);
    assert.equal(registry.requests[0]!.headers['x-api-key'], undefined);
    assert.equal(server.requests[0]!.headers['x-api-key'], 'sekret');
  });

  test('a hop the guard refuses is a 502 naming the provider, and nothing is sent there', async () => {
    registry.reset();
    server.on('/api/domain/example.org', { status: 302, headers: { location: `${registry.origin}/rdap/domain/example.org` } });
    const error = await failure(upstreamWith(guardAllowing([])).forCall(soon()).call(keyed, { path: '/domain/example.org', followRedirects: 2 }, parseItems, signal()));
    assert.equal(error.status, 502);
    assert.match(error.message, /^Test Provider: it redirected to http:\/\/127\.0\.0\.1:\d+, which the SSRF guard refuses/);
    assert.equal(registry.requests.length, 0);
  });

  test('without followRedirects a redirect is a status like any other (here: 502)', async () => {
    server.on('/api/domain/example.net', { status: 302, headers: { location: `${registry.origin}/x` } });
    const error = await failure(upstreamWith(guardAllowing(['127.0.0.1/32'])).forCall(soon()).call(keyed, { path: '/domain/example.net' }, parseItems, signal()));
    assert.equal(error.status, 502);
    assert.match(error.message, /answered HTTP 302/);
  });
});
