// Wikipedia through the MediaWiki core REST API: `GET /w/rest.php/v1/search/page?q=...&limit=...`
// answers `{"pages":[{"id","key","title","excerpt","matched_title","description","thumbnail",...}]}`
// where `excerpt` is HTML with `<span class="searchmatch">` around matched words and may be null,
// and `description` and `thumbnail` may be null. Refusals come as JSON with `httpCode` and
// `httpReason`, usually with `errorKey` and `messageTranslations` (MediaWiki's ResponseFactory).
import { ToolError } from '../../errors/tool-error.ts';
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { httpUrl } from './http-url.ts';
import { plainTextOf, squashSpace } from './plain-text.ts';
import { isJsonObject, isSuccessStatus, jsonObjectOf, stringMember, type JsonObject } from './response-body.ts';
import type { SearchHit } from './search-hit.ts';

export const wikipedia = defineProvider({
  id: 'wikipedia',
  name: 'Wikipedia',
  baseUrl: { env: 'TOOLGATE_WIKIPEDIA_URL', default: 'https://{lang}.wikipedia.org' },
  timeoutMs: 8_000,
  maxBytes: 1024 * 1024,
  // Wikimedia sets no fixed quota for this endpoint but asks API clients to stay modest and to
  // identify themselves (the layer sends the gateway's User-Agent).
  rateLimit: { requests: 20, perMs: 1_000, concurrency: 4, maxQueueMs: 2_000 },
  cacheTtlMs: 10 * 60_000,
  cacheReason: 'Search results over encyclopedia articles change slowly; ten minutes spares Wikimedia repeats at no cost in freshness.',
  staleForMs: 60 * 60_000,
  attribution: 'Wikipedia (CC BY-SA 4.0)',
  termsUrl: 'https://foundation.wikimedia.org/wiki/Policy:Wikimedia_Foundation_API_Usage_Guidelines',
  docsUrl: 'https://www.mediawiki.org/wiki/API:REST_API/Reference#Search_pages',
});

/** A Wikipedia language edition as it appears in the host name: "en", "de", "zh-yue". */
const LANGUAGE_CODE = /^[a-z]{2,3}(-[a-z]+)?$/;
/** SearchHandler accepts `limit` from 1 to 100. */
const MAX_LIMIT = 100;
/** Refusals that carry MediaWiki's JSON error body (5xx stays with the layer's retries). */
const ERROR_STATUSES = [400, 403, 404] as const;

export async function searchWikipedia(
  caller: ProviderCaller,
  query: string,
  limit: number,
  signal: AbortSignal,
  lang = 'en',
): Promise<ProviderAnswer<SearchHit[]>> {
  if (!LANGUAGE_CODE.test(lang)) {
    throw new ToolError(400, 'invalid_input', `lang: "${lang}" is not a Wikipedia language code (like "en", "de" or "zh-yue")`, { field: 'lang' });
  }
  const request = {
    path: '/w/rest.php/v1/search/page',
    baseUrlParams: { lang },
    query: { q: query, limit: Math.min(MAX_LIMIT, Math.max(1, Math.floor(limit) || 1)) },
    acceptStatuses: ERROR_STATUSES,
  };
  const answer = await caller.call(wikipedia, request, (response) => parseWikipedia(response, lang), signal);
  return { ...answer, value: answer.value.slice(0, Math.max(0, limit)) };
}

/** Hits link to the canonical article even when the base URL points at a mirror. */
export function parseWikipedia(response: RawResponse, lang: string): SearchHit[] {
  const body = jsonObjectOf(response, wikipedia.name);
  if (!isSuccessStatus(response.status)) throw refusalOf(body, response.status);
  if (!Array.isArray(body.pages)) throw badAnswer(wikipedia.name, 'its answer has no pages list', response.status);
  const hits: SearchHit[] = [];
  for (const page of body.pages) {
    const hit = isJsonObject(page) ? hitOf(page, lang, hits.length + 1) : undefined;
    if (hit) hits.push(hit);
  }
  return hits;
}

function refusalOf(body: JsonObject, status: number) {
  const translations = isJsonObject(body.messageTranslations) ? body.messageTranslations : {};
  const message = stringMember(translations, 'en') ?? Object.values(translations).find((text): text is string => typeof text === 'string') ?? stringMember(body, 'message');
  const reason = stringMember(body, 'httpReason');
  const what = [stringMember(body, 'errorKey'), message].filter(Boolean).join(': ') || reason || 'no detail given';
  return badAnswer(wikipedia.name, `it refused the search (HTTP ${status}, ${what})`, status);
}

function hitOf(page: JsonObject, lang: string, position: number): SearchHit | undefined {
  const key = stringMember(page, 'key');
  if (!key) return undefined;
  const url = httpUrl(`https://${lang}.wikipedia.org/wiki/${articlePath(key)}`);
  if (!url) return undefined;
  const description = squashSpace(stringMember(page, 'description') ?? '');
  return {
    title: squashSpace(stringMember(page, 'title') ?? '') || key.replaceAll('_', ' '),
    url,
    snippet: plainTextOf(stringMember(page, 'excerpt') ?? ''),
    position,
    ...(description ? { extra: { description } } : {}),
  };
}

/** The key as Wikipedia writes it in article links: encoded, but with `:`, `/`, `,` and friends left readable. */
function articlePath(key: string): string {
  return encodeURIComponent(key).replace(/%(3A|2F|2C|3B|40|24)/gi, (escaped) => decodeURIComponent(escaped));
}
