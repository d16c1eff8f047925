// The id of a request: the caller's own X-Request-Id when it is a plain token, otherwise a new one.
import { randomUUID } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';

const PLAIN_TOKEN = /^[\w.:-]{1,128}$/;

export function requestIdFor(headers: IncomingHttpHeaders): string {
  const given = headers['x-request-id'];
  return typeof given === 'string' && PLAIN_TOKEN.test(given) ? given : randomUUID();
}
