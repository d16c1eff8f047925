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
  /** The JSON before and after the quoted resource URL, when it could be found. */
  split: { before: string; url: string; after: string } | undefined;
}

const fixedHeaders = [...Object.entries(corsHeaders).flat(), 'cache-control', 'no-store', 'content-type', 'application/json; charset=utf-8'];

function encode(json: string): Encoded402 {
  const header = base64Json(json);
  return { json, header, rawHeaders: [...fixedHeaders, PAYMENT_REQUIRED.toLowerCase(), header, 'content-length', String(Buffer.byteLength(json))] };
}

// The gate hands back the same PaymentRequired for every unpaid call to a route: encode it once.
const templates = new WeakMap<PaymentRequired, Template>();

function templateOf(paymentRequired: PaymentRequired): Template {
  let template = templates.get(paymentRequired);
  if (!template) {
    const json = JSON.stringify(paymentRequired);
    template = { plain: encode(json), split: splitAtUrl(json, paymentRequired.resource?.url) };
    templates.set(paymentRequired, template);
  }
  return template;
}

function splitAtUrl(json: string, url: string | undefined): Template['split'] {
  if (url === undefined) return undefined;
  const key = '"resource":{"url":';
  const quoted = JSON.stringify(url);
  const at = json.indexOf(key + quoted);
  if (at === -1) return undefined;
  const start = at + key.length;
  return { before: json.slice(0, start), url, after: json.slice(start + quoted.length) };
}

/**
 * The answer for a request to the resource with this query string (`?a=1&b=2` as sent, or empty).
 * The resource's URL is the route's, so the URL asked is that URL followed by the query.
 */
export function encoded402(paymentRequired: PaymentRequired, query = ''): Encoded402 {
  const { plain, split } = templateOf(paymentRequired);
  if (query === '' || query === '?' || !split) return plain;
  return encode(`${split.before}${JSON.stringify(split.url + query)}${split.after}`);
}

/** The query string of a raw request target (`/path?a=1` gives `?a=1`), or empty. */
export function queryOf(target: string): string {
  const mark = target.indexOf('?');
  return mark === -1 ? '' : target.slice(mark);
}
