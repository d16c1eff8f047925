// The SSRF guard end to end: URLs that must be refused before anything is sent (proved by trap
// servers on 127.0.0.2 and ::1, a transport spy and a resolver spy), redirects out of an allowed
// loopback fixture, DNS rebinding, and the positive cases.
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import { after, describe, test } from 'node:test';
import { startFixtureServer, type FixtureServer } from '../../../test/support/fixture-server.ts';
import { RawFetchError, type HostResolver, type RawRequest, type RawResponse, type ResolvedAddress } from '../http/http-types.ts';
import { rawFetch } from '../http/raw-fetch.ts';
import type { GuardPolicy, RefusalReason } from './guard-types.ts';
import { guardedFetch, UrlRefusedError, type GuardedFetchOptions } from './guarded-fetch.ts';
import { checkCallerUrl } from './url-policy.ts';

async function startOptionalFixture(host: string): Promise<FixtureServer | undefined> {
  try {
    return await startFixtureServer(host);
  } catch {
    return undefined;
  }
}

// Top-level await: whether ::1 exists decides which tests are skipped, before any test is declared.
const allowed = await startFixtureServer('127.0.0.1');
const trap2 = await startFixtureServer('127.0.0.2');
const trap6 = await startOptionalFixture('::1');
const NO_IPV6 = '::1 is not available on this machine: the IPv6 loopback trap cannot be checked';
after(async () => {
  await Promise.all([allowed.close(), trap2.close(), trap6?.close()]);
});

const t2 = trap2.port;
const t6 = trap6?.port ?? 80;

const v4 = (address: string): ResolvedAddress => ({ address, family: 4 });
const v6 = (address: string): ResolvedAddress => ({ address, family: 6 });

/** Names the tests resolve; anything else fails as ENOTFOUND, so no query ever leaves the machine. */
const zone: Readonly<Record<string, ResolvedAddress[]>> = {
  'internal.test': [v4('10.0.0.5')],
  'mixed.test': [v4('93.184.215.14'), v4('10.0.0.1')],
  'loopback.test': [v4('127.0.0.2')],
  'v6loop.test': [v6('::1')],
  'metadata.test': [v4('169.254.169.254')],
  'mapped.test': [v6('::ffff:127.0.0.2')],
  'fixture.test': [v4('127.0.0.1')],
};

function resolverSpy(answers: Readonly<Record<string, ResolvedAddress[]>> = zone): HostResolver & { calls: string[] } {
  const calls: string[] = [];
  const resolve = async (hostname: string) => {
    calls.push(hostname);
    const found = answers[hostname];
    if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
    return found;
  };
  return Object.assign(resolve, { calls });
}

function transportSpy(): ((request: RawRequest) => Promise<RawResponse>) & { sent: RawRequest[] } {
  const sent: RawRequest[] = [];
  const send = (request: RawRequest) => {
    sent.push(request);
    return rawFetch(request);
  };
  return Object.assign(send, { sent });
}

function policyWith(resolve: HostResolver, allow: readonly string[] = []): GuardPolicy {
  return { allowedPorts: [80, 443, allowed.port, t2, t6], allow, resolve };
}

async function refusal(promise: Promise<unknown>): Promise<UrlRefusedError> {
  const error = await promise.then(
    () => assert.fail('expected the URL to be refused'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof UrlRefusedError, `expected a UrlRefusedError, got ${String(error)}`);
  return error;
}

function assertTrapsUntouched(t: { diagnostic(message: string): void }) {
  assert.deepEqual(trap2.requests, [], '127.0.0.2 received a request');
  if (trap6) assert.deepEqual(trap6.requests, [], '::1 received a request');
  else t.diagnostic(NO_IPV6);
}

describe('URLs refused before anything is sent', () => {
  const refused: ReadonlyArray<[string, RefusalReason]> = [
    // IPv4 special-purpose addresses
    [`http://127.0.0.1:${allowed.port}/`, 'forbidden_address'],
    [`http://127.0.0.2:${t2}/`, 'forbidden_address'],
    ['http://127.255.255.254/', 'forbidden_address'],
    ['http://10.0.0.1/', 'forbidden_address'],
    ['http://172.16.5.4/', 'forbidden_address'],
    ['http://192.168.1.1/', 'forbidden_address'],
    ['http://169.254.169.254/latest/meta-data/', 'forbidden_address'],
    ['http://169.254.0.1/', 'forbidden_address'],
    ['http://100.64.0.1/', 'forbidden_address'],
    ['http://100.100.100.200/', 'forbidden_address'],
    ['http://224.0.0.1/', 'forbidden_address'],
    ['http://239.255.255.250/', 'forbidden_address'],
    ['http://255.255.255.255/', 'forbidden_address'],
    ['http://0.0.0.0/', 'forbidden_address'],
    ['http://0.1.2.3/', 'forbidden_address'],
    ['http://0/', 'forbidden_address'],
    ['http://192.0.2.1/', 'forbidden_address'],
    ['http://198.18.0.1/', 'forbidden_address'],
    ['http://240.0.0.1/', 'forbidden_address'],
    ['http://192.0.0.8/', 'forbidden_address'],
    // IPv6 forms, including those that carry a forbidden IPv4 address
    [`http://[::1]:${t6}/`, 'forbidden_address'],
    ['http://[::]/', 'forbidden_address'],
    ['http://[fe80::1]/', 'forbidden_address'],
    ['http://[fc00::1]/', 'forbidden_address'],
    ['http://[fd12::1]/', 'forbidden_address'],
    ['http://[ff02::1]/', 'forbidden_address'],
    ['http://[2001:db8::1]/', 'forbidden_address'],
    [`http://[::ffff:127.0.0.1]:${allowed.port}/`, 'forbidden_address'],
    [`http://[::ffff:7f00:2]:${t2}/`, 'forbidden_address'],
    ['http://[::ffff:169.254.169.254]/', 'forbidden_address'],
    ['http://[::ffff:10.0.0.1]/', 'forbidden_address'],
    ['http://[::7f00:1]/', 'forbidden_address'],
    ['http://[64:ff9b::a00:1]/', 'forbidden_address'],
    ['http://[64:ff9b::7f00:1]/', 'forbidden_address'],
    ['http://[64:ff9b:1::a00:1]/', 'forbidden_address'],
    ['http://[2002:7f00:1::]/', 'forbidden_address'],
    ['http://[2002:a9fe:a9fe::]/', 'forbidden_address'],
    ['http://[2001:0:4136:e378:8000:63bf:80ff:fffe]/', 'forbidden_address'],
    // Numeric forms WHATWG URL turns into dotted quads
    ['http://2130706433/', 'forbidden_address'],
    ['http://0x7f000001/', 'forbidden_address'],
    ['http://017700000001/', 'forbidden_address'],
    ['http://127.1/', 'forbidden_address'],
    ['http://0177.0.0.1/', 'forbidden_address'],
    ['http://0x7f.0.0.1/', 'forbidden_address'],
    ['http://0x7f.1/', 'forbidden_address'],
    ['http://3232235777/', 'forbidden_address'],
    ['http://0xa9fea9fe/', 'forbidden_address'],
    ['http://127.0.0.1./', 'forbidden_address'],
    // localhost names
    ['http://localhost/', 'forbidden_address'],
    ['http://localhost./', 'forbidden_address'],
    ['http://LOCALHOST/', 'forbidden_address'],
    ['http://api.localhost/', 'forbidden_address'],
    [`http://localhost:${allowed.port}/`, 'forbidden_address'],
    // Names that resolve to forbidden addresses: resolved, never connected to
    ['http://internal.test/', 'forbidden_address'],
    ['http://mixed.test/', 'forbidden_address'],
    [`http://loopback.test:${t2}/`, 'forbidden_address'],
    [`http://v6loop.test:${t6}/`, 'forbidden_address'],
    ['http://metadata.test/', 'forbidden_address'],
    [`http://mapped.test:${t2}/`, 'forbidden_address'],
    ['http://nosuch.test/', 'unresolvable'],
    // Credentials, schemes, ports, malformed URLs
    ['http://user:pass@example.com/', 'credentials'],
    ['http://user@example.com/', 'credentials'],
    ['https://:secret@example.com/', 'credentials'],
    ['file:///etc/passwd', 'scheme'],
    ['ftp://example.com/', 'scheme'],
    ['gopher://example.com:70/_GET', 'scheme'],
    ['data:text/plain,hello', 'scheme'],
    ['javascript:alert(1)', 'scheme'],
    ['ws://example.com/', 'scheme'],
    ['http://example.com:8080/', 'port'],
    ['http://example.com:22/', 'port'],
    ['http://example.com:6379/', 'port'],
    ['https://example.com:8443/', 'port'],
    ['http://127.0.0.1:6379/', 'port'],
    ['/relative/path', 'invalid_url'],
    ['not a url', 'invalid_url'],
    ['http://', 'invalid_url'],
    ['http://exa mple.com/', 'invalid_url'],
  ];

  test(`the table holds at least 45 URLs (${refused.length})`, () => assert.ok(refused.length >= 45));

  for (const [url, reason] of refused) {
    test(`${url} -> ${reason}`, async () => {
      const resolve = resolverSpy();
      const transport = transportSpy();
      const error = await refusal(guardedFetch(url, { policy: policyWith(resolve), timeoutMs: 2_000, maxBytes: 1024, transport }));
      assert.equal(error.reason, reason, error.message);
      assert.deepEqual([error.status, error.code, error.details?.reason, error.details?.url], [400, 'url_refused', reason, url]);
      assert.match(error.message, /^url: /);
      assert.deepEqual(transport.sent, [], 'a request was sent');
      const host = URL.canParse(url) ? new URL(url).hostname : '';
      if (host.endsWith('.test')) assert.deepEqual(resolve.calls, [host], 'the name was not resolved exactly once');
      else assert.deepEqual(resolve.calls, [], 'a static refusal asked DNS');
    });
  }

  test('none of them reached the loopback servers', (t) => {
    assert.deepEqual(allowed.requests, []);
    assertTrapsUntouched(t);
  });

  test('refusals say what the address is', async () => {
    const policy = policyWith(resolverSpy());
    const messageOf = async (url: string) => (await refusal(guardedFetch(url, { policy, timeoutMs: 1_000, maxBytes: 1, transport: transportSpy() }))).message;
    assert.equal(await messageOf('http://169.254.169.254/'), 'url: 169.254.169.254 is a cloud metadata address; only public internet addresses can be fetched');
    assert.equal(await messageOf('http://2130706433/'), 'url: 127.0.0.1 is a loopback address; only public internet addresses can be fetched');
    assert.match(await messageOf('http://[::ffff:7f00:1]/'), /^url: ::ffff:7f00:1 is an IPv4-mapped form of 127\.0\.0\.1, a loopback address;/);
    assert.match(await messageOf('http://[64:ff9b::a00:1]/'), /NAT64 form of 10\.0\.0\.1, a private address/);
    assert.match(await messageOf('http://mixed.test/'), /^url: mixed\.test resolves to 10\.0\.0\.1, a private address;/);
    assert.match(await messageOf('http://nosuch.test/'), /^url: the host nosuch\.test could not be resolved \(ENOTFOUND\)/);
    assert.match(await messageOf('http://example.com:6379/'), /^url: port 6379 is not allowed/);
    assert.match(await messageOf('http://localhost/'), /^url: localhost is a loopback name/);
  });
});

describe('checkCallerUrl without DNS', () => {
  const ports = { allowedPorts: [80, 443], allow: [] };

  test('numeric IPv4 forms arrive as dotted quads and are judged as such', () => {
    for (const url of ['http://2130706433/', 'http://0x7f000001/', 'http://017700000001/', 'http://127.1/', 'http://0x7f.1/', 'http://0177.0.0.1/']) {
      const verdict = checkCallerUrl(url, ports);
      assert.equal(verdict.ok, false, url);
      if (!verdict.ok) assert.match(verdict.message, /^url: 127\.0\.0\.1 is a loopback address/, url);
    }
  });

  test('public addresses and names pass (names are left to the DNS check)', () => {
    for (const url of ['https://example.com/a?b=c', 'http://8.8.8.8/', 'http://[2606:4700::1]/', 'https://127.0.0.1.nip.io/', 'http://[64:ff9b::808:808]/']) {
      const verdict = checkCallerUrl(url, ports);
      assert.equal(verdict.ok, true, url);
    }
    const verdict = checkCallerUrl(new URL('HTTPS://Example.COM:443/x'), ports);
    assert.equal(verdict.ok && verdict.url.href, 'https://example.com/x');
  });
});

describe('redirects out of an allowed loopback fixture', () => {
  const fetchAllowed = (path: string, resolve = resolverSpy(), extra: Partial<GuardedFetchOptions> = {}) => {
    const transport = transportSpy();
    const promise = guardedFetch(`${allowed.origin}${path}`, {
      policy: policyWith(resolve, ['127.0.0.1/32']),
      timeoutMs: 3_000,
      maxBytes: 64 * 1024,
      transport,
      ...extra,
    });
    return { promise, transport };
  };

  const escapes: ReadonlyArray<[string, string, RefusalReason]> = [
    ['/to-127-0-0-2', `http://127.0.0.2:${t2}/secret`, 'forbidden_address'],
    ['/to-metadata', 'http://169.254.169.254/latest/meta-data/iam/', 'forbidden_address'],
    ['/to-v6-loopback', `http://[::1]:${t6}/secret`, 'forbidden_address'],
    ['/to-mapped', `http://[::ffff:127.0.0.2]:${t2}/secret`, 'forbidden_address'],
    ['/to-private-name', `http://loopback.test:${t2}/secret`, 'forbidden_address'],
    ['/to-file', 'file:///etc/passwd', 'scheme'],
    ['/to-closed-port', 'http://127.0.0.1:6379/', 'port'],
  ];
  for (const [path, location, reason] of escapes) {
    test(`a redirect to ${location} is refused before it is followed`, async (t) => {
      allowed.on(path, { status: 302, headers: { location } });
      const resolve = resolverSpy();
      const { promise, transport } = fetchAllowed(path, resolve);
      const error = await refusal(promise);
      assert.equal(error.reason, reason, error.message);
      assert.equal(error.details?.url, location.startsWith('file:') ? location : new URL(location).href);
      assert.match(error.message, /reached by a redirect from http:\/\/127\.0\.0\.1:\d+\/to-/);
      assert.deepEqual(transport.sent.map((request) => request.url.pathname), [path]);
      assert.deepEqual(resolve.calls, location.includes('.test') ? ['loopback.test'] : []);
      assertTrapsUntouched(t);
    });
  }

  test('a redirect to ::1 never reaches the IPv6 loopback server', { skip: trap6 ? false : NO_IPV6 }, async () => {
    allowed.on('/to-v6-trap', { status: 307, headers: { location: `http://[::1]:${t6}/` } });
    await refusal(fetchAllowed('/to-v6-trap').promise);
    assert.deepEqual(trap6?.requests, []);
  });

  test('127.0.0.2 is refused while 127.0.0.1/32 is allowed', async (t) => {
    const transport = transportSpy();
    const error = await refusal(
      guardedFetch(`http://127.0.0.2:${t2}/`, { policy: policyWith(resolverSpy(), ['127.0.0.1/32']), timeoutMs: 1_000, maxBytes: 1, transport }),
    );
    assert.equal(error.reason, 'forbidden_address');
    assert.deepEqual(transport.sent, []);
    assertTrapsUntouched(t);
  });

  test('a chain of 6 redirects is refused after the 5th', async () => {
    for (let hop = 1; hop <= 7; hop++) allowed.on(`/chain/${hop}`, { status: 301, headers: { location: `/chain/${hop + 1}` } });
    const { promise, transport } = fetchAllowed('/chain/1');
    const error = await refusal(promise);
    assert.equal(error.reason, 'too_many_redirects');
    assert.deepEqual(transport.sent.map((request) => request.url.pathname), ['/chain/1', '/chain/2', '/chain/3', '/chain/4', '/chain/5', '/chain/6']);
    assert.equal(allowed.requests.some((request) => request.path === '/chain/7'), false);
  });
});

describe('what the guard lets through', () => {
  test('the allowed fixture answers', async () => {
    allowed.on('/page', { headers: { 'content-type': 'text/html' }, body: '<h1>hi</h1>' });
    const response = await guardedFetch(`${allowed.origin}/page`, {
      policy: policyWith(resolverSpy(), ['127.0.0.1/32']),
      timeoutMs: 2_000,
      maxBytes: 1024,
      headers: { 'User-Agent': 'guard-test' },
    });
    assert.deepEqual([response.status, response.body.toString(), response.redirects, response.requestedUrl], [200, '<h1>hi</h1>', [], `${allowed.origin}/page`]);
    assert.equal(allowed.requests.at(-1)?.headers['user-agent'], 'guard-test');
  });

  test('a redirect chain within the allowed fixture is followed and reported', async () => {
    allowed.on('/start', { status: 301, headers: { location: '/middle?x=1' } });
    allowed.on('/middle', { status: 303, headers: { location: `${allowed.origin}/end` } });
    allowed.on('/end', { body: 'arrived' });
    const response = await guardedFetch(`${allowed.origin}/start`, { policy: policyWith(resolverSpy(), ['127.0.0.1/32']), timeoutMs: 2_000, maxBytes: 1024 });
    assert.equal(response.body.toString(), 'arrived');
    assert.deepEqual(response.redirects, [`${allowed.origin}/middle?x=1`, `${allowed.origin}/end`]);
    assert.equal(response.url.href, `${allowed.origin}/end`);
    assert.equal(response.requestedUrl, `${allowed.origin}/start`);
  });

  test('a name resolving to an allowed address is pinned to it; credentials stay with their origin', async () => {
    allowed.on('/named', { status: 302, headers: { location: `http://fixture.test:${allowed.port}/landing` } });
    allowed.on('/landing', { body: 'landed' });
    const resolve = resolverSpy();
    const response = await guardedFetch(`${allowed.origin}/named`, {
      policy: policyWith(resolve, ['127.0.0.1/32']),
      timeoutMs: 2_000,
      maxBytes: 1024,
      headers: { Authorization: 'Bearer abc', accept: 'text/html' },
    });
    assert.equal(response.body.toString(), 'landed');
    assert.deepEqual(resolve.calls, ['fixture.test']);
    const [first, second] = allowed.requests.slice(-2);
    assert.equal(first?.headers.authorization, 'Bearer abc');
    assert.equal(second?.headers.authorization, undefined);
    assert.equal(second?.headers.accept, 'text/html');
    assert.equal(second?.headers.host, `fixture.test:${allowed.port}`);
  });

  test('HEAD stays HEAD across a 303', async () => {
    allowed.on('/head-start', { status: 303, headers: { location: '/head-end' } }, 'HEAD');
    allowed.on('/head-end', { headers: { 'x-end': '1' } }, 'HEAD');
    const response = await guardedFetch(`${allowed.origin}/head-start`, { policy: policyWith(resolverSpy(), ['127.0.0.1/32']), timeoutMs: 2_000, maxBytes: 1024, method: 'HEAD' });
    assert.equal(response.headers['x-end'], '1');
    assert.deepEqual(allowed.requests.slice(-2).map((request) => request.method), ['HEAD', 'HEAD']);
  });
});

describe('DNS rebinding and the shared deadline', () => {
  /** An HTTP server on 127.0.0.2 at the allowed fixture's port: where a second DNS answer would lead. */
  async function startRebindTrap(): Promise<{ requests: IncomingMessage[]; close(): Promise<void> }> {
    const requests: IncomingMessage[] = [];
    const server: Server = createServer((request, response) => {
      requests.push(request);
      response.end('rebound');
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(allowed.port, '127.0.0.2', resolve);
    });
    return { requests, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
  }

  test('the checked address is the one connected to, and the name is resolved once', async () => {
    const trap = await startRebindTrap();
    try {
      allowed.on('/rebind', { body: 'the real one' });
      let calls = 0;
      const rebinding: HostResolver = async () => (calls++ === 0 ? [v4('127.0.0.1')] : [v4('127.0.0.2')]);
      const response = await guardedFetch(`http://rebind.test:${allowed.port}/rebind`, {
        policy: { allowedPorts: [allowed.port], allow: ['127.0.0.1/32'], resolve: rebinding },
        timeoutMs: 2_000,
        maxBytes: 1024,
      });
      assert.equal(response.body.toString(), 'the real one');
      assert.equal(response.remoteAddress, '127.0.0.1');
      assert.equal(calls, 1);
      assert.deepEqual(trap.requests, []);
    } finally {
      await trap.close();
    }
  });

  test('a resolver slower than the deadline is a timeout; an abort is an abort', async () => {
    const never: HostResolver = () => new Promise<ResolvedAddress[]>(() => {});
    const policy = { allowedPorts: [80], allow: [], resolve: never };
    const started = performance.now();
    const timeout = await guardedFetch('http://slow.test/', { policy, timeoutMs: 100, maxBytes: 1 }).catch((error: unknown) => error);
    assert.ok(timeout instanceof RawFetchError && timeout.failure === 'timeout', String(timeout));
    assert.ok(performance.now() - started < 1_000);
    const aborted = await guardedFetch('http://slow.test/', { policy, timeoutMs: 5_000, maxBytes: 1, signal: AbortSignal.timeout(50) }).catch((error: unknown) => error);
    assert.ok(aborted instanceof RawFetchError && aborted.failure === 'aborted', String(aborted));
  });

  test('the deadline is shared by every hop of a redirect chain', async () => {
    allowed.on('/slow-1', { delayMs: 150, status: 302, headers: { location: '/slow-2' } });
    allowed.on('/slow-2', { delayMs: 150, status: 302, headers: { location: '/slow-3' } });
    allowed.on('/slow-3', { delayMs: 150, body: 'too late' });
    const error = await guardedFetch(`${allowed.origin}/slow-1`, { policy: policyWith(resolverSpy(), ['127.0.0.1/32']), timeoutMs: 350, maxBytes: 1024 }).catch(
      (caught: unknown) => caught,
    );
    assert.ok(error instanceof RawFetchError && error.failure === 'timeout', String(error));
  });
});
