// Hacker News through Algolia's HN Search API: `GET /api/v1/search` (by relevance) and
// `/api/v1/search_by_date` (newest first), both answering
// `{"hits":[{"objectID","title","url","author","points","num_comments","created_at","created_at_i","story_text","_tags",...}],"nbHits","page","nbPages","hitsPerPage",...}`.
// A post without a link (Ask HN) has `url` empty, null or absent and links to its discussion.
// Refusals come as HTTP 400 with `{"code":400,"message":"..."}`.
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { httpUrl } from './http-url.ts';
import { isoFromDateTime } from './iso-time.ts';
import type { NewsStory } from './news-story.ts';
import { plainTextOf, squashSpace } from './plain-text.ts';
import { isJsonObject, jsonObjectOf, looksLikeHtml, stringMember, type JsonObject } from './response-body.ts';
import type { SearchHit } from './search-hit.ts';
import { siteHost } from '../../net/site-host.ts';

export const hnAlgolia = defineProvider({
  id: 'hn-algolia',
  name: 'Hacker News (Algolia)',
  baseUrl: { env: 'TOOLGATE_HN_ALGOLIA_URL', default: 'https://hn.algolia.com' },
  timeoutMs: 8_000,
  maxBytes: 2 * 1024 * 1024,
  // The API allows 10,000 requests per hour per IP: 10 per 3.6 s is that rate with a burst of 10.
  rateLimit: { requests: 10, perMs: 3_600, concurrency: 4, maxQueueMs: 2_000 },
  cacheTtlMs: 2 * 60_000,
  cacheReason: 'Points, comments and the front page move within minutes; two minutes keeps trending answers current while absorbing repeats.',
  staleForMs: 60 * 60_000,
  attribution: 'Hacker News via the Algolia HN Search API',
  termsUrl: 'https://www.ycombinator.com/legal/',
  docsUrl: 'https://hn.algolia.com/api',
});

const DISCUSSION_HOST = 'news.ycombinator.com';
/** Algolia's ceiling for `hitsPerPage`. */
const MAX_HITS_PER_PAGE = 1_000;
/** Algolia refuses a malformed search with 400 and a JSON message worth passing on. */
const REFUSED = 400;

/** A story as Hacker News shows it, before it becomes a SearchHit or a NewsStory. */
export interface HackerNewsStory {
  id: string;
  title: string;
  /** The linked page, or undefined for a post without a link. */
  url: string | undefined;
  discussionUrl: string;
  publishedAt: string | undefined;
  points: number | undefined;
  comments: number | undefined;
  /** The post's own text (Ask HN), as plain text; empty when none. */
  text: string;
}

export function discussionUrlOf(objectId: string): string {
  return `https://${DISCUSSION_HOST}/item?id=${encodeURIComponent(objectId)}`;
}

export async function searchHackerNews(caller: ProviderCaller, query: string, limit: number, signal: AbortSignal): Promise<ProviderAnswer<SearchHit[]>> {
  const request = { path: '/api/v1/search', query: { query, tags: 'story', hitsPerPage: hitsPerPageFor(limit) }, acceptStatuses: [REFUSED] };
  const answer = await caller.call(hnAlgolia, request, parseHackerNewsHits, signal);
  return { ...answer, value: answer.value.slice(0, Math.max(0, limit)) };
}

/** Stories matching the query, newest first, posted after `sinceUnixSeconds`. */
export async function searchHackerNewsStories(
  caller: ProviderCaller,
  query: string,
  limit: number,
  signal: AbortSignal,
  sinceUnixSeconds: number,
): Promise<ProviderAnswer<NewsStory[]>> {
  const query_ = { query, tags: 'story', hitsPerPage: hitsPerPageFor(limit), numericFilters: `created_at_i>${Math.floor(sinceUnixSeconds)}` };
  const answer = await caller.call(hnAlgolia, { path: '/api/v1/search_by_date', query: query_, acceptStatuses: [REFUSED] }, parseHackerNewsStories, signal);
  return { ...answer, value: answer.value.slice(0, Math.max(0, limit)) };
}

export async function hackerNewsFrontPage(caller: ProviderCaller, limit: number, signal: AbortSignal): Promise<ProviderAnswer<NewsStory[]>> {
  const request = { path: '/api/v1/search', query: { tags: 'front_page', hitsPerPage: hitsPerPageFor(limit) }, acceptStatuses: [REFUSED] };
  const answer = await caller.call(hnAlgolia, request, parseHackerNewsStories, signal);
  return { ...answer, value: answer.value.slice(0, Math.max(0, limit)) };
}

function hitsPerPageFor(limit: number): number {
  return Math.min(MAX_HITS_PER_PAGE, Math.max(1, Math.floor(limit) || 1));
}

/** The answer's stories in Algolia's order; hits without an objectID or title are skipped. */
export function parseHackerNewsAnswer(response: RawResponse): HackerNewsStory[] {
  if (looksLikeHtml(response)) throw badAnswer(hnAlgolia.name, `it answered with an HTML page (HTTP ${response.status})`, response.status);
  const body = jsonObjectOf(response, hnAlgolia.name);
  if (response.status === REFUSED || !Array.isArray(body.hits)) {
    const message = stringMember(body, 'message');
    const status = typeof body.code === 'number' ? body.code : typeof body.status === 'number' ? body.status : response.status;
    throw badAnswer(hnAlgolia.name, message ? `it refused the search (${message})` : 'its answer has no hits list', status);
  }
  const stories: HackerNewsStory[] = [];
  for (const hit of body.hits) {
    const story = isJsonObject(hit) ? storyOf(hit) : undefined;
    if (story) stories.push(story);
  }
  return stories;
}

export function parseHackerNewsHits(response: RawResponse): SearchHit[] {
  return parseHackerNewsAnswer(response).map((story, index) => searchHitOf(story, index + 1));
}

/** Stories without a readable date are left out: news ranking needs one (every captured hit has created_at_i). */
export function parseHackerNewsStories(response: RawResponse): NewsStory[] {
  const stories: NewsStory[] = [];
  for (const story of parseHackerNewsAnswer(response)) {
    if (story.publishedAt) stories.push(newsStoryOf(story, story.publishedAt, stories.length + 1));
  }
  return stories;
}

function storyOf(hit: JsonObject): HackerNewsStory | undefined {
  const id = typeof hit.objectID === 'string' ? hit.objectID : typeof hit.objectID === 'number' ? String(hit.objectID) : undefined;
  const title = squashSpace(stringMember(hit, 'title') ?? '');
  if (!id || !title) return undefined;
  return {
    id,
    title,
    url: httpUrl(hit.url),
    discussionUrl: discussionUrlOf(id),
    publishedAt: publishedAtOf(hit),
    points: countOf(hit.points),
    comments: countOf(hit.num_comments),
    text: plainTextOf(stringMember(hit, 'story_text') ?? ''),
  };
}

/** `created_at_i` (Unix seconds) is exact; `created_at` is the fallback. */
function publishedAtOf(hit: JsonObject): string | undefined {
  if (typeof hit.created_at_i === 'number' && Number.isFinite(hit.created_at_i)) return new Date(hit.created_at_i * 1000).toISOString();
  const createdAt = stringMember(hit, 'created_at');
  return createdAt ? isoFromDateTime(createdAt) : undefined;
}

function countOf(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

function searchHitOf(story: HackerNewsStory, position: number): SearchHit {
  const extra: Record<string, string | number> = { discussionUrl: story.discussionUrl };
  if (story.points !== undefined) extra.points = story.points;
  if (story.comments !== undefined) extra.comments = story.comments;
  return {
    title: story.title,
    url: story.url ?? story.discussionUrl,
    snippet: story.text || engagementLine(story),
    position,
    ...(story.publishedAt ? { publishedAt: story.publishedAt } : {}),
    extra,
  };
}

/** "57 points, 84 comments", leaving out what the hit did not say. */
function engagementLine(story: HackerNewsStory): string {
  const parts: string[] = [];
  if (story.points !== undefined) parts.push(`${story.points} ${story.points === 1 ? 'point' : 'points'}`);
  if (story.comments !== undefined) parts.push(`${story.comments} ${story.comments === 1 ? 'comment' : 'comments'}`);
  return parts.join(', ');
}

function newsStoryOf(story: HackerNewsStory, publishedAt: string, rank: number): NewsStory {
  return {
    title: story.title,
    url: story.url ?? story.discussionUrl,
    source: story.url ? siteHost(story.url) : DISCUSSION_HOST,
    publishedAt,
    ...(story.points !== undefined ? { points: story.points } : {}),
    ...(story.comments !== undefined ? { comments: story.comments } : {}),
    discussionUrl: story.discussionUrl,
    provider: hnAlgolia.id,
    rank,
  };
}
