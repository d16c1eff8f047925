// A PaymentRequired as the HTTP face sends it (the PAYMENT-REQUIRED header and the same JSON as the
// body), naming the URL as the caller asked it: x402's reference servers keep the request's path and
// query in `resource.url`, and checkers compare it with the URL they fetched. The gate describes a
// resource once per route; only the query differs between calls, so the JSON is encoded once and
// the query spliced in.
import type { PaymentRequired } from '@x402/core/types';
import { base64Json, corsHeaders, PAYMENT_REQUIRED } from './payment-headers.ts';

export interface Encoded402 {
  json: string;
  header: string;
  /** Every header of the answer but the request id, as [name, value, name, value, …]. */
  rawHeaders: string[];
}

interface Template {
  /** The answer for the route's own URL (no query). */
  plain: Encoded402;
  /** Where the quoted resource URL sits, when it could be found (see splitAtUrl). */
  split: Split | undefined;
}

interface Split {
  url: string;
  /** The JSON before the quoted URL, and after it. */
  before: string;
  after: string;
  /**
   * Base64 is written 3 bytes at a time: the longest run of `before` whose byte length is a multiple
   * of 3 encodes once; only the rest, the URL and `after` are encoded per query.
   */
  beforeBase64: string;
  beforeTail: Buffer;
  afterBytes: Buffer;
  /** Every byte but the URL's. */
  fixedByteLength: number;
}

const fixedHeaders = [...Object.entries(corsHeaders).flat(), 'cache-control', 'no-store', 'content-type', 'application/json; charset=utf-8'];

function answer(json: string, header: string, byteLength: number): Encoded402 {
  return { json, header, rawHeaders: [...fixedHeaders, PAYMENT_REQUIRED.toLowerCase(), header, 'content-length', String(byteLength)] };
}

// The gate hands back the same PaymentRequired for every unpaid call to a route: encode it once.
const templates = new WeakMap<PaymentRequired, Template>();

function templateOf(paymentRequired: PaymentRequired): Template {
  let template = templates.get(paymentRequired);
  if (!template) {
    const json = JSON.stringify(paymentRequired);
    template = { plain: answer(json, base64Json(json), Buffer.byteLength(json)), split: splitAtUrl(json, paymentRequired.resource?.url) };
    templates.set(paymentRequired, template);
  }
  return template;
}

function splitAtUrl(json: string, url: string | undefined): Split | undefined {
  if (url === undefined) return undefined;
  const key = '"resource":{"url":';
  const quoted = JSON.stringify(url);
  const at = json.indexOf(key + quoted);
  if (at === -1) return undefined;
  const start = at + key.length;
  const before = json.slice(0, start);
  const after = json.slice(start + quoted.length);
  const beforeBytes = Buffer.from(before, 'utf8');
  const aligned = beforeBytes.length - (beforeBytes.length % 3);
  const afterBytes = Buffer.from(after, 'utf8');
  return {
    url, before, after, afterBytes,
    beforeBase64: beforeBytes.subarray(0, aligned).toString('base64'),
    beforeTail: beforeBytes.subarray(aligned),
    fixedByteLength: beforeBytes.length + afterBytes.length,
  };
}

/**
 * The answer for a request to the resource with this query string (`?a=1&b=2` as sent, or empty).
 * The resource's URL is the route's, so the URL asked is that URL followed by the query.
 */
export function encoded402(paymentRequired: PaymentRequired, query = ''): Encoded402 {
  const { plain, split } = templateOf(paymentRequired);
  if (query === '' || query === '?' || !split) return plain;
  const quoted = JSON.stringify(split.url + query);
  const quotedBytes = Buffer.from(quoted, 'utf8');
  const rest = Buffer.concat([split.beforeTail, quotedBytes, split.afterBytes]);
  return answer(`${split.before}${quoted}${split.after}`, split.beforeBase64 + rest.toString('base64'), split.fixedByteLength + quotedBytes.length);
}

/** The query string of a raw request target (`/path?a=1` gives `?a=1`), or empty. */
export function queryOf(target: string): string {
  const mark = target.indexOf('?');
  return mark === -1 ? '' : target.slice(mark);
}
