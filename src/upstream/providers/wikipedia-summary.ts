// What lookup_wiki_fact reads from a Wikipedia language edition, besides the search in wikipedia.ts:
// - The page summary, `GET /api/rest_v1/page/summary/{title}` (Specs/Summary 1.4; wikimedia/restbase
//   v1/summary_new.yaml): {type: "standard"|"disambiguation"|"no-extract"|"mainpage", title,
//   displaytitle, titles{canonical, normalized, display}, pageid, wikibase_item, description,
//   extract, extract_html, thumbnail{source, width, height}, lang, dir, revision, timestamp,
//   content_urls{desktop{page,...}}}. A title not in normal form answers 301, a redirect page 302
//   to its target (both followed here); an unknown title 404 with an application/problem+json body
//   whose type ends in "not_found".
// - The links of a disambiguation page, through the Action API: `GET /w/api.php?action=query&prop=links`
//   answers {query{pages{<id>: {title, links[{ns, title}]}}}} (formatversion 1; 2 gives a pages
//   array), and reports errors as {error{code, info}} with HTTP 200.
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { badAnswer } from '../upstream-errors.ts';
import { httpUrl } from './http-url.ts';
import { squashSpace } from './plain-text.ts';
import { isJsonObject, isSuccessStatus, jsonObjectOf, stringMember } from './response-body.ts';
import type { SearchHit } from './search-hit.ts';
import { parseWikipedia, wikipedia } from './wikipedia.ts';

export interface WikiThumbnail {
  url: string;
  width: number | null;
  height: number | null;
}

export interface PageSummary {
  /** "standard", "disambiguation", "no-extract" or "mainpage" (Specs/Summary). */
  type: string;
  /** Normalized title: "Dart (programming language)". */
  title: string;
  /** As stored: "Dart_(programming_language)". */
  canonicalTitle: string;
  description: string | null;
  /** Plain text of the first paragraph(s); null when the page has none. */
  extract: string | null;
  /** The revision read, for a permanent link. */
  revision: string | null;
  /** When that revision was made, ISO 8601. */
  lastModified: string | null;
  /** Wikidata item: "Q1490". */
  wikidataId: string | null;
  thumbnail: WikiThumbnail | null;
  pageId: number | null;
  /** The language code the page is written in (a variant may differ from the edition). */
  lang: string;
}

/** Statuses followed: normalization (301) and redirect pages (302). */
const SUMMARY_REDIRECTS = 2;
/** At most this many links are read from a disambiguation page (the Action API's own cap is 500). */
export const MAX_OPTIONS = 500;

/** The summary of a page, or null when the edition has no page of that title. */
export async function fetchPageSummary(caller: ProviderCaller, lang: string, title: string, signal: AbortSignal): Promise<ProviderAnswer<PageSummary | null>> {
  const request = {
    path: `/api/rest_v1/page/summary/${encodeURIComponent(title.replaceAll(' ', '_'))}`,
    baseUrlParams: { lang },
    acceptStatuses: [404],
    followRedirects: SUMMARY_REDIRECTS,
  };
  return caller.call(wikipedia, request, (response) => parsePageSummary(response, lang), signal);
}

export function parsePageSummary(response: RawResponse, lang: string): PageSummary | null {
  const body = jsonObjectOf(response, wikipedia.name);
  const type = stringMember(body, 'type') ?? '';
  if (!isSuccessStatus(response.status)) {
    if (response.status === 404 && type.endsWith('/not_found')) return null;
    throw badAnswer(wikipedia.name, `it refused the page summary (HTTP ${response.status}, ${stringMember(body, 'detail') ?? stringMember(body, 'title') ?? 'no detail given'})`, response.status);
  }
  const titles = isJsonObject(body.titles) ? body.titles : {};
  const canonicalTitle = stringMember(titles, 'canonical') ?? stringMember(body, 'title')?.replaceAll(' ', '_');
  if (!type || type.includes('/') || !canonicalTitle) throw badAnswer(wikipedia.name, 'its answer is not a page summary (no type and title)');
  const extract = squashSpace(stringMember(body, 'extract') ?? '');
  const description = squashSpace(stringMember(body, 'description') ?? '');
  return {
    type,
    title: stringMember(titles, 'normalized') ?? canonicalTitle.replaceAll('_', ' '),
    canonicalTitle,
    description: description || null,
    extract: extract || null,
    revision: stringMember(body, 'revision') ?? null,
    lastModified: stringMember(body, 'timestamp') ?? null,
    wikidataId: stringMember(body, 'wikibase_item') ?? null,
    thumbnail: thumbnailOf(body.thumbnail),
    pageId: typeof body.pageid === 'number' ? body.pageid : null,
    lang: stringMember(body, 'lang') ?? lang,
  };
}

function thumbnailOf(value: unknown): WikiThumbnail | null {
  if (!isJsonObject(value)) return null;
  const url = httpUrl(value.source);
  if (!url) return null;
  const size = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) ? n : null);
  return { url, width: size(value.width), height: size(value.height) };
}

/** The article titles a page links to (main namespace, in the API's order: alphabetical). */
export async function fetchPageLinks(caller: ProviderCaller, lang: string, title: string, signal: AbortSignal): Promise<ProviderAnswer<string[]>> {
  const request = {
    path: '/w/api.php',
    baseUrlParams: { lang },
    query: { action: 'query', prop: 'links', titles: title, plnamespace: 0, pllimit: 'max', redirects: 1, format: 'json' },
  };
  return caller.call(wikipedia, request, parsePageLinks, signal);
}

export function parsePageLinks(response: RawResponse): string[] {
  const body = jsonObjectOf(response, wikipedia.name);
  if (isJsonObject(body.error)) {
    const error = body.error;
    throw badAnswer(wikipedia.name, `the Action API refused the query (${[stringMember(error, 'code'), stringMember(error, 'info')].filter(Boolean).join(': ') || 'no detail given'})`);
  }
  const query = isJsonObject(body.query) ? body.query : undefined;
  const pages = query?.pages;
  const pageList: unknown[] = Array.isArray(pages) ? pages : isJsonObject(pages) ? Object.values(pages) : [];
  if (!query || pageList.length === 0) throw badAnswer(wikipedia.name, 'its answer has no query.pages');
  const titles: string[] = [];
  for (const page of pageList.filter(isJsonObject)) {
    for (const link of Array.isArray(page.links) ? page.links.filter(isJsonObject) : []) {
      const title = stringMember(link, 'title');
      if (title && link.ns === 0 && titles.length < MAX_OPTIONS) titles.push(title);
    }
  }
  return titles;
}

/** Search hits for a language edition (any code the tool accepted; searchWikipedia's own check is narrower). */
export async function searchEdition(caller: ProviderCaller, query: string, lang: string, limit: number, signal: AbortSignal): Promise<ProviderAnswer<SearchHit[]>> {
  const request = {
    path: '/w/rest.php/v1/search/page',
    baseUrlParams: { lang },
    query: { q: query, limit },
    acceptStatuses: [400, 403, 404],
  };
  return caller.call(wikipedia, request, (response) => parseWikipedia(response, lang), signal);
}

/** An article's link as Wikipedia writes it: encoded, with `:`, `/`, `,`, `(`, `)` left readable. */
export function articleUrl(lang: string, canonicalTitle: string): string {
  const path = encodeURIComponent(canonicalTitle.replaceAll(' ', '_')).replace(/%(3A|2F|2C|3B|40|24|28|29)/gi, (escaped) => decodeURIComponent(escaped));
  return `https://${lang}.wikipedia.org/wiki/${path}`;
}

/** A permanent link to one revision of an article. */
export function permanentUrl(lang: string, canonicalTitle: string, revision: string): string {
  return `https://${lang}.wikipedia.org/w/index.php?title=${encodeURIComponent(canonicalTitle)}&oldid=${encodeURIComponent(revision)}`;
}

