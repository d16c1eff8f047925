// A web-standard Request for the SDK's fetch-shaped handlers, made from a Fastify request whose body
// Fastify has already read and parsed (the SDK is handed that parsed body; the Request carries none).
import type { FastifyReply, FastifyRequest } from 'fastify';

export function toWebRequest(request: FastifyRequest, reply: FastifyReply): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(request.headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) headers.append(name, item);
  }
  // Dropped with the body: the Request has none, and a stale length would describe nothing.
  headers.delete('content-length');
  headers.delete('transfer-encoding');
  // The client going away aborts the exchange (and with it the tool call, which is then not settled).
  const gone = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) gone.abort();
  });
  return new Request(urlOf(request), { method: request.method, headers, signal: gone.signal });
}

function urlOf(request: FastifyRequest): string {
  const candidate = `http://${request.headers.host ?? 'localhost'}${request.url}`;
  return URL.canParse(candidate) ? candidate : `http://localhost${request.url}`;
}
