// rawFetch against loopback servers: bodies and their encodings, the decoded-size cap, the one
// deadline, failures and their kinds, pinning, and what it leaves to its callers (redirects).
import assert from 'node:assert/strict';
import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { brotliCompressSync, constants as zlibConstants, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { startFixtureServer, type FixtureServer } from '../../../test/support/fixture-server.ts';
import { toRawFetchError } from './fetch-failure.ts';
import { RawFetchError, type RawFetchFailure, type RawRequest } from './http-types.ts';
import { rawFetch } from './raw-fetch.ts';

const MB = 1024 * 1024;

let server: FixtureServer;
before(async () => {
  server = await startFixtureServer();
});
after(() => server.close());

const fetchPath = (path: string, options: Partial<RawRequest> = {}) =>
  rawFetch({ url: new URL(path, server.origin), timeoutMs: 5_000, maxBytes: MB, ...options });

async function failureOf(promise: Promise<unknown>): Promise<RawFetchError> {
  const error = await promise.then(
    () => assert.fail('expected a RawFetchError'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof RawFetchError, `expected a RawFetchError, got ${String(error)}`);
  return error;
}

/** A TCP server that answers every connection with `reply` (raw bytes), for what fixture-server cannot send. */
async function startRawServer(reply: (socket: Socket) => void): Promise<{ origin: string; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const raw: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', () => reply(socket));
  });
  await new Promise<void>((resolve) => raw.listen(0, '127.0.0.1', resolve));
  return {
    origin: `http://127.0.0.1:${(raw.address() as AddressInfo).port}`,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => raw.close(() => resolve()));
    },
  };
}

describe('rawFetch bodies', () => {
  test('a plain body, its status, headers and the address it came from', async () => {
    server.on('/plain', { status: 201, headers: { 'content-type': 'text/plain', 'x-trace': 'abc' }, body: 'hello' });
    const response = await fetchPath('/plain');
    assert.equal(response.status, 201);
    assert.equal(response.body.toString(), 'hello');
    assert.equal(response.truncated, false);
    assert.equal(response.headers['content-type'], 'text/plain');
    assert.equal(response.headers['x-trace'], 'abc');
    assert.equal(response.remoteAddress, '127.0.0.1');
    assert.equal(response.url.href, `${server.origin}/plain`);
  });

  test('asks for compressed bodies unless the caller chose, and sends the caller\'s headers and body', async () => {
    server.on('/echo', { body: 'ok' });
    server.on('/echo', { body: 'posted' }, 'POST');
    await fetchPath('/echo', { headers: { 'X-Api-Key': 'k1' } });
    await fetchPath('/echo', { headers: { 'Accept-Encoding': 'identity' }, method: 'POST', body: '{"a":1}' });
    const [get, post] = server.requests.filter((request) => request.path === '/echo');
    assert.equal(get?.headers['accept-encoding'], 'gzip, deflate, br');
    assert.equal(get?.headers['x-api-key'], 'k1');
    assert.equal(post?.headers['accept-encoding'], 'identity');
    assert.equal(post?.method, 'POST');
    assert.equal(post?.body, '{"a":1}');
  });

  test('gzip, deflate (zlib and raw) and br bodies are decoded', async () => {
    const text = 'compressed '.repeat(1000);
    server.on('/gzip', { body: text, gzip: true });
    server.on('/deflate', { headers: { 'content-encoding': 'deflate' }, body: deflateSync(text) });
    server.on('/deflate-raw', { headers: { 'content-encoding': 'deflate' }, body: deflateRawSync(text) });
    server.on('/br', { headers: { 'content-encoding': 'br' }, body: brotliCompressSync(text) });
    for (const path of ['/gzip', '/deflate', '/deflate-raw', '/br']) {
      const response = await fetchPath(path);
      assert.equal(response.body.toString(), text, path);
      assert.equal(response.truncated, false, path);
    }
  });

  test('a body cut at the cap has exactly maxBytes bytes', async () => {
    server.on('/long', { body: 'x'.repeat(10_000) });
    const cut = await fetchPath('/long', { maxBytes: 1_000 });
    assert.deepEqual([cut.body.length, cut.truncated], [1_000, true]);
    const exact = await fetchPath('/long', { maxBytes: 10_000 });
    assert.deepEqual([exact.body.length, exact.truncated], [10_000, false]);
  });

  test('the cap counts decoded bytes', async () => {
    server.on('/gzip-long', { body: 'y'.repeat(100_000), gzip: true });
    const cut = await fetchPath('/gzip-long', { maxBytes: 5_000 });
    assert.deepEqual([cut.body.length, cut.truncated, cut.body.toString()], [5_000, true, 'y'.repeat(5_000)]);
  });

  test('a gzip bomb (50 MB of zeros) is cut at 1 MB, quickly', async () => {
    const bomb = gzipSync(Buffer.alloc(50 * MB));
    server.on('/bomb', { headers: { 'content-encoding': 'gzip' }, body: bomb });
    const started = performance.now();
    const response = await fetchPath('/bomb', { maxBytes: MB });
    assert.deepEqual([response.body.length, response.truncated], [MB, true]);
    assert.ok(response.body.every((byte) => byte === 0));
    assert.ok(performance.now() - started < 2_000, `took ${Math.round(performance.now() - started)} ms`);
  });

  test('a brotli bomb is cut as well', async () => {
    server.on('/br-bomb', { headers: { 'content-encoding': 'br' }, body: brotliCompressSync(Buffer.alloc(20 * MB), { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 2 } }) });
    const response = await fetchPath('/br-bomb', { maxBytes: 64 * 1024 });
    assert.deepEqual([response.body.length, response.truncated], [64 * 1024, true]);
  });

  test('a HEAD request has no body, even with a content-encoding', async () => {
    server.on('/head', { headers: { 'content-type': 'text/html', 'content-encoding': 'gzip' }, body: 'ignored' });
    const response = await fetchPath('/head', { method: 'HEAD' });
    assert.equal(response.status, 200);
    assert.equal(response.body.length, 0);
    assert.equal(response.headers['content-type'], 'text/html');
    assert.equal(server.requests.at(-1)?.method, 'HEAD');
  });

  test('redirects are returned, not followed', async () => {
    server.on('/moved', { status: 302, headers: { location: '/elsewhere' } });
    const response = await fetchPath('/moved');
    assert.deepEqual([response.status, response.headers.location], [302, '/elsewhere']);
    assert.equal(server.requests.some((request) => request.path === '/elsewhere'), false);
  });

  test('a body declined from its headers is not read: the answer comes at once, empty, and says so', async () => {
    // Headers, then a body that would take ten seconds to arrive.
    const slow = await startRawServer((socket) => {
      socket.write('HTTP/1.1 200 OK\r\ncontent-type: video/mp4\r\ncontent-length: 100000000\r\n\r\n');
      const timer = setInterval(() => socket.write(Buffer.alloc(1024)), 10);
      socket.on('close', () => clearInterval(timer));
      setTimeout(() => clearInterval(timer), 10_000).unref();
    });
    try {
      const seen: string[] = [];
      const started = Date.now();
      const response = await rawFetch({
        url: new URL('/movie', slow.origin), timeoutMs: 5_000, maxBytes: MB,
        wantsBody: (status, headers) => {
          seen.push(`${status} ${headers['content-type']}`);
          return false;
        },
      });
      assert.ok(Date.now() - started < 1_000, 'it did not wait for the body');
      assert.deepEqual(seen, ['200 video/mp4']);
      assert.equal(response.bodySkipped, true);
      assert.equal(response.body.length, 0);
      assert.equal(response.status, 200);
    } finally {
      await slow.close();
    }
  });

  test('repeated headers are joined and set-cookie is dropped', async () => {
    const raw = await startRawServer((socket) =>
      socket.end('HTTP/1.1 200 OK\r\nX-Multi: a\r\nX-Multi: b\r\nSet-Cookie: s=1\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok'),
    );
    try {
      const response = await rawFetch({ url: new URL(`${raw.origin}/`), timeoutMs: 2_000, maxBytes: MB });
      assert.equal(response.headers['x-multi'], 'a, b');
      assert.equal(response.headers['set-cookie'], undefined);
      assert.equal(response.body.toString(), 'ok');
    } finally {
      await raw.close();
    }
  });
});

describe('rawFetch pinning', () => {
  test('a name pinned to 127.0.0.1 reaches the server with its own Host header, without DNS', async () => {
    server.on('/pinned', { body: 'pinned' });
    const response = await rawFetch({
      url: new URL(`http://fixture.test:${server.port}/pinned?q=1`),
      pinnedAddress: { address: '127.0.0.1', family: 4 },
      timeoutMs: 2_000,
      maxBytes: MB,
    });
    assert.equal(response.body.toString(), 'pinned');
    assert.equal(response.remoteAddress, '127.0.0.1');
    const received = server.requests.at(-1);
    assert.equal(received?.headers.host, `fixture.test:${server.port}`);
    assert.equal(received?.url, '/pinned?q=1');
  });

  test('an address literal cannot be pinned elsewhere', async () => {
    await assert.rejects(
      rawFetch({ url: new URL(`${server.origin}/`), pinnedAddress: { address: '127.0.0.2', family: 4 }, timeoutMs: 1_000, maxBytes: 10 }),
      TypeError,
    );
  });
});

describe('rawFetch failures', () => {
  test('one deadline: a slow answer times out', async () => {
    server.on('/slow', { delayMs: 1_000, body: 'late' });
    const started = performance.now();
    const error = await failureOf(fetchPath('/slow', { timeoutMs: 200 }));
    assert.equal(error.failure, 'timeout');
    assert.ok(performance.now() - started < 1_000);
  });

  test('the deadline covers the body, not only the headers', async () => {
    const raw = await startRawServer((socket) => socket.write('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\npartial'));
    try {
      const error = await failureOf(rawFetch({ url: new URL(`${raw.origin}/`), timeoutMs: 300, maxBytes: MB }));
      assert.equal(error.failure, 'timeout');
    } finally {
      await raw.close();
    }
  });

  test('a destroyed connection is a reset', async () => {
    server.on('/reset', { reset: true });
    assert.equal((await failureOf(fetchPath('/reset'))).failure, 'reset');
  });

  test('a connection closed in the middle of the body is a reset', async () => {
    const raw = await startRawServer((socket) => socket.end('HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this'));
    try {
      assert.equal((await failureOf(rawFetch({ url: new URL(`${raw.origin}/`), timeoutMs: 2_000, maxBytes: MB }))).failure, 'reset');
    } finally {
      await raw.close();
    }
  });

  test('a closed port is connect_failed, and no message holds the query string', async () => {
    const closed = await startFixtureServer();
    const port = closed.port;
    await closed.close();
    const error = await failureOf(rawFetch({ url: new URL(`http://127.0.0.1:${port}/v1/search?api_key=SECRET123`), timeoutMs: 2_000, maxBytes: MB }));
    assert.equal(error.failure, 'connect_failed');
    assert.match(error.message, new RegExp(`http://127\\.0\\.0\\.1:${port}/v1/search`));
    assert.doesNotMatch(error.message, /SECRET123|api_key/);
  });

  test('an abort signal stops the exchange; an aborted signal stops it before it starts', async () => {
    server.on('/wait', { delayMs: 1_000, body: 'late' });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    assert.equal((await failureOf(fetchPath('/wait', { signal: controller.signal }))).failure, 'aborted');
    const before = server.requests.length;
    assert.equal((await failureOf(fetchPath('/wait', { signal: AbortSignal.abort() }))).failure, 'aborted');
    assert.equal(server.requests.length, before);
  });

  test('malformed HTTP and undecodable bodies are protocol errors', async () => {
    const raw = await startRawServer((socket) => socket.end('HTTP/1.1 200 OK\r\nBad Header Line\r\n\r\n'));
    server.on('/bad-gzip', { headers: { 'content-encoding': 'gzip' }, body: 'not gzip at all' });
    server.on('/bad-br', { headers: { 'content-encoding': 'br' }, body: 'not brotli at all, not at all' });
    server.on('/zstd', { headers: { 'content-encoding': 'zstd' }, body: 'whatever' });
    try {
      assert.equal((await failureOf(rawFetch({ url: new URL(`${raw.origin}/`), timeoutMs: 2_000, maxBytes: MB }))).failure, 'protocol_error');
    } finally {
      await raw.close();
    }
    for (const path of ['/bad-gzip', '/bad-br', '/zstd']) {
      assert.equal((await failureOf(fetchPath(path))).failure, 'protocol_error', path);
    }
  });

  test('error codes map to failure kinds', () => {
    const errorWithCode = (code: string) => Object.assign(new Error(`boom ${code}`), { code });
    const expected: ReadonlyArray<[string, RawFetchFailure]> = [
      ['ENOTFOUND', 'dns_failed'],
      ['EAI_AGAIN', 'dns_failed'],
      ['ECONNREFUSED', 'connect_failed'],
      ['EHOSTUNREACH', 'connect_failed'],
      ['ECONNRESET', 'reset'],
      ['ERR_STREAM_PREMATURE_CLOSE', 'reset'],
      ['HPE_INVALID_HEADER_TOKEN', 'protocol_error'],
      ['Z_DATA_ERROR', 'protocol_error'],
      ['CERT_HAS_EXPIRED', 'connect_failed'],
    ];
    for (const [code, failure] of expected) assert.equal(toRawFetchError(errorWithCode(code), 'https://example.com/', true).failure, failure, code);
    const aggregate = new AggregateError([errorWithCode('ECONNREFUSED')], 'all failed');
    assert.equal(toRawFetchError(aggregate, 'https://example.com/', false).failure, 'connect_failed');
  });
});
