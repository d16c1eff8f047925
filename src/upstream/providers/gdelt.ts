// GDELT DOC 2.0 article list: `GET /api/v2/doc/doc?query=...&mode=ArtList&format=json&maxrecords=...&sort=DateDesc&timespan=...`
// answers `{"articles":[{"url","url_mobile","title","seendate":"20240615T170000Z","socialimage","domain","language","sourcecountry"}]}`,
// and `{}` when nothing matched. Errors come as a plain-text sentence with HTTP 200 (query errors) or
// 429 (throttling, left to the upstream layer), often labelled text/html.
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer, UpstreamError } from '../upstream-errors.ts';
import { httpUrl } from './http-url.ts';
import { isoFromWaybackStamp } from './iso-time.ts';
import type { NewsStory } from './news-story.ts';
import { squashSpace } from './plain-text.ts';
import { bodyText, isJsonObject, jsonObjectOf, stringMember, type JsonObject } from './response-body.ts';
import { siteHost } from '../../net/site-host.ts';

export const gdelt = defineProvider({
  id: 'gdelt',
  name: 'GDELT',
  baseUrl: { env: 'TOOLGATE_GDELT_URL', default: 'https://api.gdeltproject.org' },
  // Full-text search over three months of world news is often slow to answer.
  timeoutMs: 15_000,
  maxBytes: 2 * 1024 * 1024,
  // GDELT asks for no more than one request every 5 seconds.
  rateLimit: { requests: 1, perMs: 5_000, concurrency: 1, maxQueueMs: 5_000 },
  cacheTtlMs: 15 * 60_000,
  cacheReason: 'GDELT ingests new coverage every 15 minutes, and its one-request-per-5-seconds limit makes every repeat expensive.',
  staleForMs: 2 * 60 * 60_000,
  attribution: 'News coverage via the GDELT Project (DOC 2.0 API)',
  termsUrl: 'https://www.gdeltproject.org/about.html#termsofuse',
  docsUrl: 'https://blog.gdeltproject.org/gdelt-doc-2-0-api-debuts/',
});

/** The API's ceiling for `maxrecords`. */
const MAX_RECORDS = 250;
/** What GDELT's throttling notice asks for, in seconds. */
const THROTTLE_SECONDS = 5;
const THROTTLE_NOTICE = /limit requests to one every/i;
const SEEN_DATE = /^(\d{8})T(\d{6})Z$/;

/** Articles matching the query from the last 24 hours, newest first. */
export async function searchGdelt(caller: ProviderCaller, query: string, limit: number, signal: AbortSignal): Promise<ProviderAnswer<NewsStory[]>> {
  const maxrecords = Math.min(MAX_RECORDS, Math.max(1, Math.floor(limit) || 1));
  const request = { path: '/api/v2/doc/doc', query: { query, mode: 'ArtList', format: 'json', maxrecords, sort: 'DateDesc', timespan: '24h' } };
  const answer = await caller.call(gdelt, request, parseGdelt, signal);
  return { ...answer, value: answer.value.slice(0, Math.max(0, limit)) };
}

export function parseGdelt(response: RawResponse): NewsStory[] {
  const text = bodyText(response).trim();
  if (text === '') throw badAnswer(gdelt.name, 'its answer is empty', response.status);
  // The plain-text notices are checked before JSON, since GDELT labels them text/html.
  if (!text.startsWith('{')) throw noticeFailure(text, response.status);
  const body = jsonObjectOf(response, gdelt.name);
  if (body.articles === undefined) return [];
  if (!Array.isArray(body.articles)) throw badAnswer(gdelt.name, 'its articles member is not a list', response.status);
  const stories: NewsStory[] = [];
  for (const article of body.articles) {
    const story = isJsonObject(article) ? storyOf(article, stories.length + 1) : undefined;
    if (story) stories.push(story);
  }
  return stories;
}

function noticeFailure(text: string, status: number): UpstreamError {
  if (THROTTLE_NOTICE.test(text)) {
    return new UpstreamError('rate_limited', gdelt.name, 'it asks for at most one request every 5 seconds', { retryAfterSeconds: THROTTLE_SECONDS, upstreamStatus: status });
  }
  if (text.startsWith('<')) return badAnswer(gdelt.name, `it answered with an HTML page (HTTP ${status})`, status);
  const sentence = squashSpace(text).slice(0, 200);
  return badAnswer(gdelt.name, `it refused the query (${sentence.replace(/\.$/, '')})`, status);
}

/** `seendate` ("20240615T170000Z", UTC) as ISO 8601, or undefined. */
export function isoFromSeenDate(seendate: string): string | undefined {
  const match = SEEN_DATE.exec(seendate.trim());
  return match ? isoFromWaybackStamp(`${match[1]}${match[2]}`) : undefined;
}

function storyOf(article: JsonObject, rank: number): NewsStory | undefined {
  const url = httpUrl(article.url);
  const seendate = stringMember(article, 'seendate');
  const publishedAt = seendate ? isoFromSeenDate(seendate) : undefined;
  if (!url || !publishedAt) return undefined;
  const domain = squashSpace(stringMember(article, 'domain') ?? '');
  return {
    title: squashSpace(stringMember(article, 'title') ?? '') || url,
    url,
    source: domain || siteHost(url),
    publishedAt,
    provider: gdelt.id,
    rank,
  };
}
