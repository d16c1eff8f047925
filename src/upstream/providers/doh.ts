// DNS over HTTPS, JSON API (Cloudflare's, the same schema as Google's): `GET <base>?name=...&type=MX`
// with `accept: application/dns-json` answers
// `{"Status":0,"TC":false,"RD":true,"RA":true,"AD":true,"CD":false,"Question":[{"name","type"}],
//   "Answer":[{"name","type","TTL","data"}],"Authority":[...]}`. Status is the DNS RCODE (0 NOERROR,
// 2 SERVFAIL, 3 NXDOMAIN); AD is set when the resolver validated the answer with DNSSEC. Record
// data is in presentation form (TXT quoted by Cloudflare, unquoted by Google).
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { isJsonObject, jsonObjectOf, stringMember, type JsonObject } from './response-body.ts';

export const doh = defineProvider({
  id: 'doh',
  name: 'DNS over HTTPS',
  baseUrl: { env: 'TOOLGATE_DOH_URL', default: 'https://cloudflare-dns.com/dns-query' },
  timeoutMs: 5_000,
  maxBytes: 256 * 1024,
  // Cloudflare publishes no request quota for its public resolver; one domain check makes about
  // ten queries (plus up to ten for SPF includes), so the limit is sized for a few checks at once.
  rateLimit: { requests: 100, perMs: 1_000, concurrency: 16, maxQueueMs: 2_000 },
  // Each answer is kept for its own smallest record TTL (freshFor); this is the fallback.
  cacheTtlMs: 5 * 60_000,
  cacheReason: 'DNS answers carry their own TTL and are cached for the smallest one; five minutes when an answer has no record to take it from.',
  staleForMs: 60 * 60_000,
  attribution: 'DNS answers from Cloudflare 1.1.1.1 (DNS over HTTPS)',
  termsUrl: 'https://developers.cloudflare.com/1.1.1.1/privacy/public-dns-resolver/',
  docsUrl: 'https://developers.cloudflare.com/1.1.1.1/encryption/dns-over-https/make-api-requests/dns-json/',
});

/** The record types this client asks for, with their numbers (IANA DNS parameters). */
export const DNS_TYPES = { A: 1, NS: 2, CNAME: 5, SOA: 6, MX: 15, TXT: 16, AAAA: 28, DS: 43, RRSIG: 46, DNSKEY: 48, CAA: 257 } as const;
export type DnsType = keyof typeof DNS_TYPES;

const RCODE_NAMES: Readonly<Record<number, string>> = { 0: 'NOERROR', 1: 'FORMERR', 2: 'SERVFAIL', 3: 'NXDOMAIN', 4: 'NOTIMP', 5: 'REFUSED' };

export interface DnsRecord {
  name: string;
  type: number;
  ttl: number;
  data: string;
}

export interface DnsAnswer {
  /** The DNS RCODE: 0 NOERROR, 2 SERVFAIL, 3 NXDOMAIN... */
  status: number;
  statusName: string;
  /** The resolver validated the answer with DNSSEC (AD flag). */
  authenticated: boolean;
  truncated: boolean;
  /** Records of the asked type (a CNAME chain's own records are left out). */
  records: DnsRecord[];
  /** Every record of the Answer and Authority sections, for the TTL. */
  minTtl: number | undefined;
  /** The resolver's own remarks (extended DNS errors), when it gave any. */
  comments: string[];
}

export async function queryDns(caller: ProviderCaller, name: string, type: DnsType, signal: AbortSignal): Promise<ProviderAnswer<DnsAnswer>> {
  return caller.call(
    doh,
    {
      path: '',
      query: { name, type },
      headers: { accept: 'application/dns-json' },
      freshFor: (response) => freshForOf(response),
    },
    (response) => parseDoh(response, type),
    signal,
  );
}

export function parseDoh(response: RawResponse, type: DnsType): DnsAnswer {
  const body = jsonObjectOf(response, doh.name);
  const status = body.Status;
  if (typeof status !== 'number' || !Number.isInteger(status)) {
    const error = stringMember(body, 'error');
    throw badAnswer(doh.name, error ? `it answered with an error (${error.slice(0, 200)})` : 'its answer has no numeric Status (not the DNS JSON format)', response.status);
  }
  const answer = recordsOf(body, 'Answer');
  const authority = recordsOf(body, 'Authority');
  const ttls = [...answer, ...authority].map((record) => record.ttl);
  return {
    status,
    statusName: RCODE_NAMES[status] ?? `RCODE ${status}`,
    authenticated: body.AD === true,
    truncated: body.TC === true,
    records: answer.filter((record) => record.type === DNS_TYPES[type]),
    minTtl: ttls.length > 0 ? Math.min(...ttls) : undefined,
    comments: commentsOf(body.Comment),
  };
}

/** How long the answer stays fresh: its smallest record TTL (an NXDOMAIN's SOA gives the negative TTL). */
function freshForOf(response: RawResponse): number | undefined {
  try {
    const ttl = parseDoh(response, 'A').minTtl;
    return ttl === undefined ? undefined : ttl * 1000;
  } catch {
    return undefined;
  }
}

function recordsOf(body: JsonObject, section: 'Answer' | 'Authority'): DnsRecord[] {
  const list = body[section];
  if (list === undefined) return [];
  if (!Array.isArray(list)) throw badAnswer(doh.name, `its ${section} section is not a list`);
  return list.map((item) => {
    const record = isJsonObject(item) ? item : {};
    const { name, type, TTL: ttl, data } = record;
    if (typeof name !== 'string' || typeof type !== 'number' || typeof ttl !== 'number' || typeof data !== 'string') {
      throw badAnswer(doh.name, `a record of its ${section} section lacks name, type, TTL or data`);
    }
    return { name, type, ttl, data };
  });
}

/** Cloudflare sends Comment as a list, Google as one string. */
function commentsOf(comment: unknown): string[] {
  if (typeof comment === 'string') return [comment];
  return Array.isArray(comment) ? comment.filter((line): line is string => typeof line === 'string') : [];
}

/** A TXT record's text: its character-strings, unquoted and joined (RFC 7208 3.3), whether the resolver quoted them or not. */
export function txtText(data: string): string {
  const trimmed = data.trim();
  if (!trimmed.startsWith('"')) return trimmed;
  const parts: string[] = [];
  const quoted = /"((?:[^"\\]|\\.)*)"/g;
  for (const match of trimmed.matchAll(quoted)) parts.push(match[1]!.replace(/\\(.)/g, '$1'));
  return parts.join('');
}
