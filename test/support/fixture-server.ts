// A loopback HTTP server that replays providers' recorded answers and injects faults: status
// codes with Retry-After, delays (timeouts), connection resets, malformed and oversize bodies.
// It records every request it receives, so a test can prove that nothing reached it.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export interface FixtureAnswer {
  status?: number;
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Wait this long before answering (a provider that times out). */
  delayMs?: number;
  /** Destroy the socket instead of answering (connection reset). */
  reset?: boolean;
  /** Send the body gzip-compressed with content-encoding: gzip, as some providers always do. */
  gzip?: boolean;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
  remoteAddress: string | undefined;
}

type Responder = (request: ReceivedRequest) => FixtureAnswer | Promise<FixtureAnswer>;

export interface FixtureServer {
  /** http://127.0.0.1:PORT */
  origin: string;
  port: number;
  requests: ReceivedRequest[];
  /** Answers `METHOD path` (path without query; method defaults to GET) until replaced. */
  on(path: string, answer: FixtureAnswer | Responder, method?: string): void;
  /** Answers the next request to `path` once with `answer`, then falls back to the route. */
  once(path: string, answer: FixtureAnswer | Responder, method?: string): void;
  reset(): void;
  close(): Promise<void>;
}

/** Reads a fixture file under test/fixtures/. */
export function fixture(relativePath: string): Buffer {
  return readFileSync(new URL(`../fixtures/${relativePath}`, import.meta.url));
}

export function jsonAnswer(value: unknown, status = 200, headers: Record<string, string> = {}): FixtureAnswer {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: typeof value === 'string' ? value : JSON.stringify(value) };
}

export async function startFixtureServer(host = '127.0.0.1'): Promise<FixtureServer> {
  const routes = new Map<string, FixtureAnswer | Responder>();
  const onceRoutes = new Map<string, (FixtureAnswer | Responder)[]>();
  const requests: ReceivedRequest[] = [];
  const sockets = new Set<import('node:net').Socket>();

  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://fixture');
      const received: ReceivedRequest = {
        method: req.method ?? 'GET', url: req.url ?? '/', path: url.pathname, query: url.searchParams,
        headers: req.headers, body: Buffer.concat(chunks).toString('utf8'), remoteAddress: req.socket.remoteAddress,
      };
      requests.push(received);
      const key = `${received.method} ${received.path}`;
      const queued = onceRoutes.get(key);
      const route = queued && queued.length > 0 ? queued.shift() : routes.get(key) ?? (received.method === 'HEAD' ? routes.get(`GET ${received.path}`) : undefined);
      void answer(route, received, req, res);
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });

  async function answer(route: FixtureAnswer | Responder | undefined, received: ReceivedRequest, req: IncomingMessage, res: ServerResponse) {
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end(`no fixture for ${received.method} ${received.path}`);
      return;
    }
    const reply = typeof route === 'function' ? await route(received) : route;
    // Unref'd: a long delay must not keep the test process alive once the server is closed.
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs).unref());
    if (reply.reset) {
      req.socket.destroy();
      return;
    }
    let body = typeof reply.body === 'string' ? Buffer.from(reply.body) : reply.body ?? Buffer.alloc(0);
    const headers: Record<string, string> = { ...reply.headers };
    if (reply.gzip) {
      body = gzipSync(body);
      headers['content-encoding'] = 'gzip';
    }
    if (!res.writableEnded && !res.destroyed) res.writeHead(reply.status ?? 200, headers).end(received.method === 'HEAD' ? undefined : body);
  }

  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const port = (server.address() as AddressInfo).port;
  const keyOf = (path: string, method = 'GET') => `${method} ${path}`;
  return {
    origin: `http://${host}:${port}`,
    port,
    requests,
    on(path, answer, method) {
      routes.set(keyOf(path, method), answer);
    },
    once(path, answer, method) {
      const key = keyOf(path, method);
      onceRoutes.set(key, [...(onceRoutes.get(key) ?? []), answer]);
    },
    reset() {
      routes.clear();
      onceRoutes.clear();
      requests.length = 0;
    },
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
