// MyMemory (Translated srl): `GET /get?q=...&langpair=en|es[&de=email]` answers
// `{"responseData":{"translatedText","match"},"quotaFinished","responseDetails","responseStatus","matches":[...]}`.
// Every answer comes as HTTP 200; a refusal is told in the body: `responseStatus` (a number, or a
// string such as "403") with the reason in `responseDetails`, and the reason is also put where the
// translation goes. The daily quota notice ("MYMEMORY WARNING: YOU USED ALL AVAILABLE FREE
// TRANSLATIONS FOR TODAY. NEXT AVAILABLE IN ...") arrives the same way, as the "translation".
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer, UpstreamError } from '../upstream-errors.ts';
import { isJsonObject, jsonObjectOf, stringMember } from './response-body.ts';

export const mymemory = defineProvider({
  id: 'mymemory',
  name: 'MyMemory',
  baseUrl: { env: 'TOOLGATE_MYMEMORY_URL', default: 'https://api.mymemory.translated.net' },
  // A contact email raises the free daily quota (5,000 to 50,000 characters); the layer redacts it in `source.url`.
  apiKey: { env: 'TOOLGATE_MYMEMORY_EMAIL', in: 'query', name: 'de', optional: true },
  timeoutMs: 10_000,
  maxBytes: 256 * 1024,
  // MyMemory publishes a daily character quota, not a request rate; a long text is several requests at once.
  rateLimit: { requests: 5, perMs: 1_000, concurrency: 3, maxQueueMs: 5_000 },
  cacheTtlMs: 24 * 60 * 60_000,
  cacheReason: 'The translation of a piece of text does not change from one hour to the next, and every repeat spends the daily character quota.',
  staleForMs: 7 * 24 * 60 * 60_000,
  attribution: 'Translated by MyMemory (mymemory.translated.net)',
  termsUrl: 'https://mymemory.translated.net/doc/usagelimits.php',
  docsUrl: 'https://mymemory.translated.net/doc/spec.php',
});

/** Largest `q` MyMemory takes, in bytes of UTF-8 (spec.php: "Max 500 bytes"). */
export const MYMEMORY_MAX_QUERY_BYTES = 500;

export interface MyMemoryTranslation {
  text: string;
  /** MyMemory's match quality for the answer, 0 to 1 (1: an exact translation-memory match); null when absent. */
  match: number | null;
}

/** When the quota notice names no wait, try again in an hour. */
const QUOTA_RETRY_AFTER_S = 3_600;
const QUOTA_NOTICE = /MYMEMORY WARNING/i;

/** Translates one piece of at most MYMEMORY_MAX_QUERY_BYTES; `source` and `target` are ISO 639-1 or RFC 3066 codes. */
export async function translateMyMemory(
  caller: ProviderCaller,
  text: string,
  source: string,
  target: string,
  signal: AbortSignal,
): Promise<ProviderAnswer<MyMemoryTranslation>> {
  return caller.call(mymemory, { path: '/get', query: { q: text, langpair: `${source}|${target}` } }, parseMyMemory, signal);
}

export function parseMyMemory(response: RawResponse): MyMemoryTranslation {
  const body = jsonObjectOf(response, mymemory.name);
  const data = isJsonObject(body.responseData) ? body.responseData : {};
  const translated = stringMember(data, 'translatedText') ?? '';
  const details = stringMember(body, 'responseDetails') ?? '';
  const status = Number(body.responseStatus);
  if (body.quotaFinished === true || status === 429 || QUOTA_NOTICE.test(translated) || QUOTA_NOTICE.test(details)) {
    const notice = QUOTA_NOTICE.test(translated) ? translated : details;
    throw new UpstreamError('rate_limited', mymemory.name, 'its free daily translation quota for this gateway is used up', {
      retryAfterSeconds: waitFromNotice(notice) ?? QUOTA_RETRY_AFTER_S,
    });
  }
  if (status !== 200) {
    const reason = (details || translated).trim().slice(0, 200) || 'no reason given';
    throw badAnswer(mymemory.name, `it refused the translation (status ${String(body.responseStatus)}: ${reason})`);
  }
  if (!translated.trim()) throw badAnswer(mymemory.name, 'its answer has no translatedText');
  return { text: decodeEntities(translated), match: typeof data.match === 'number' && Number.isFinite(data.match) ? data.match : null };
}

/** "NEXT AVAILABLE IN  13 HOURS 31 MINUTES 45 SECONDS" as seconds. */
export function waitFromNotice(notice: string): number | undefined {
  const wait = /NEXT AVAILABLE IN\s+(?:(\d+)\s*HOURS?)?\s*(?:(\d+)\s*MINUTES?)?\s*(?:(\d+)\s*SECONDS?)?/i.exec(notice);
  if (!wait) return undefined;
  const seconds = Number(wait[1] ?? 0) * 3600 + Number(wait[2] ?? 0) * 60 + Number(wait[3] ?? 0);
  return seconds > 0 ? seconds : undefined;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Translation-memory segments carry HTML entities (`&apos;`, `&#39;`); the caller gets the characters. */
function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name.startsWith('#')) {
      const code = name[1] === 'x' || name[1] === 'X' ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
      return Number.isInteger(code) && code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : entity;
    }
    return NAMED_ENTITIES[name.toLowerCase()] ?? entity;
  });
}
