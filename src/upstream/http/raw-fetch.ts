// One HTTP exchange over node:http / node:https: one deadline for connect, headers and body, a
// body cap counted in decoded bytes, no redirects followed, and optionally a connection pinned to
// an address the SSRF guard has already checked.
import { Agent as HttpAgent, request as httpRequest, type ClientRequest, type IncomingMessage, type RequestOptions } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { decodersFor, readCappedBody } from './body-decoding.ts';
import { toRawFetchError } from './fetch-failure.ts';
import { RawFetchError, type RawRequest, type RawResponse } from './http-types.ts';
import { pinnedLookup } from './pinned-lookup.ts';

/** For provider calls to operator-configured hosts; pinned requests never use them (see requestOptions). */
const keepAliveAgents: Readonly<Record<string, HttpAgent>> = {
  'http:': new HttpAgent({ keepAlive: true }),
  'https:': new HttpsAgent({ keepAlive: true }),
};

const DEFAULT_ACCEPT_ENCODING = 'gzip, deflate, br';

export async function rawFetch(request: RawRequest): Promise<RawResponse> {
  const { url } = request;
  // Never the query string in a message: it may hold an API key.
  const target = `${url.origin}${url.pathname}`;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new RawFetchError('protocol_error', `${target}: only http and https are supported`);
  if (request.signal?.aborted) throw new RawFetchError('aborted', `${target}: aborted before it was sent`);
  const method = request.method ?? 'GET';
  const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(requestOptions(request, method));

  let stopped: RawFetchError | undefined;
  let answered = false;
  const stop = (error: RawFetchError) => {
    stopped ??= error;
    req.destroy(error);
  };
  const timer = setTimeout(() => stop(new RawFetchError('timeout', `${target}: no complete answer within ${request.timeoutMs} ms`)), request.timeoutMs);
  const onAbort = () => stop(new RawFetchError('aborted', `${target}: aborted`));
  request.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    const response = await send(req, request.body);
    answered = true;
    const remoteAddress = response.socket?.remoteAddress;
    const status = response.statusCode ?? 0;
    const headers = flattenHeaders(response);
    if (request.wantsBody && !request.wantsBody(status, headers)) {
      req.destroy();
      return { url, status, headers, body: Buffer.alloc(0), truncated: false, bodySkipped: true, remoteAddress };
    }
    const bodiless = method === 'HEAD' || status === 204 || status === 304;
    const { body, truncated } = await readCappedBody(response, bodiless ? [] : decodersFor(response.headers['content-encoding']), request.maxBytes);
    // The rest of a cut body is still on its way: this socket cannot carry another request.
    if (truncated) req.destroy();
    return { url, status, headers, body, truncated, remoteAddress };
  } catch (error) {
    req.destroy();
    throw stopped ?? toRawFetchError(error, target, answered);
  } finally {
    clearTimeout(timer);
    request.signal?.removeEventListener('abort', onAbort);
  }
}

function requestOptions(request: RawRequest, method: string): RequestOptions {
  const { url, pinnedAddress } = request;
  const hostname = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const literal = isIP(hostname) !== 0;
  // net connects to an IP-literal host without any lookup, so a pin could not redirect it.
  if (pinnedAddress && literal && pinnedAddress.address !== hostname) {
    throw new TypeError(`rawFetch: ${url.host} is an address literal; it can only be pinned to ${hostname}`);
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers ?? {})) headers[name.toLowerCase()] = value;
  headers['accept-encoding'] ??= DEFAULT_ACCEPT_ENCODING;
  return {
    protocol: url.protocol,
    hostname,
    port: url.port === '' ? undefined : Number(url.port),
    path: `${url.pathname}${url.search}`,
    method,
    headers,
    ...(url.protocol === 'https:' && !literal ? { servername: hostname } : {}),
    // A pooled socket may be connected to another address of the same name: pinned requests get their own.
    ...(pinnedAddress ? { agent: false, lookup: pinnedLookup(pinnedAddress) } : { agent: keepAliveAgents[url.protocol] }),
  };
}

/** Sends the request and waits for the response headers. */
function send(req: ClientRequest, body: RawRequest['body']): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    // Kept for the whole exchange: a later socket error must not go unhandled.
    req.on('error', reject);
    req.once('response', resolve);
    req.end(body);
  });
}

/** Lower-case names, repeated headers joined with ", "; set-cookie is dropped (nothing here keeps cookies). */
function flattenHeaders(response: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, values] of Object.entries(response.headersDistinct)) {
    if (name !== 'set-cookie' && values) headers[name] = values.join(', ');
  }
  return headers;
}
