// Several engines' rankings as one, by reciprocal rank fusion (Cormack, Clarke & Büttcher, 2009):
// a page's score is the sum over the engines that found it of 1 / (k + rank), so agreement between
// engines lifts a page and k (60 by default) keeps one engine's top hit from dominating.
// A page is identified by its canonical URL; its entry keeps the first engine's URL form.
import type { SearchHit } from '../../../upstream/providers/search-hit.ts';
import { canonicalUrl } from './canonical-url.ts';
import { siteHost } from '../../../net/site-host.ts';

export interface EngineRanking {
  engine: string;
  /** In the engine's order: the first hit is its rank 1. */
  hits: readonly SearchHit[];
}

export interface FusedResult {
  title: string;
  url: string;
  snippet: string;
  /** Host without a leading `www.`. */
  domain: string;
  /** Reciprocal rank fusion score, rounded to 6 decimals. */
  score: number;
  /** 1-based place in the fused list. */
  position: number;
  /** Each engine that found the page, with its rank there, in the order the lists were given. */
  foundBy: { engine: string; rank: number }[];
  publishedAt?: string;
}

export const DEFAULT_RRF_K = 60;

interface Sighting {
  hit: SearchHit;
  rank: number;
}

interface PageGroup {
  url: string;
  foundBy: { engine: string; rank: number }[];
  sightings: Sighting[];
}

export function fuseRankings(lists: readonly EngineRanking[], options: { k?: number } = {}): FusedResult[] {
  const k = options.k ?? DEFAULT_RRF_K;
  if (!Number.isFinite(k) || k < 0) throw new RangeError(`k must be a finite number of at least 0, not ${k}`);
  const groups = groupByPage(lists);
  const results = groups.map((group) => resultOf(group, k));
  results.sort(
    (a, b) =>
      b.score - a.score ||
      b.foundBy.length - a.foundBy.length ||
      bestRank(a) - bestRank(b) ||
      (a.url < b.url ? -1 : a.url > b.url ? 1 : 0),
  );
  return results.map((result, index) => ({ ...result, position: index + 1 }));
}

function groupByPage(lists: readonly EngineRanking[]): PageGroup[] {
  const byKey = new Map<string, PageGroup>();
  for (const { engine, hits } of lists) {
    // An engine that lists a page twice counts once, at its better rank.
    const seenHere = new Set<string>();
    hits.forEach((hit, index) => {
      const key = canonicalUrl(hit.url);
      if (seenHere.has(key)) return;
      seenHere.add(key);
      const rank = index + 1;
      let group = byKey.get(key);
      if (!group) {
        group = { url: hit.url, foundBy: [], sightings: [] };
        byKey.set(key, group);
      }
      group.foundBy.push({ engine, rank });
      group.sightings.push({ hit, rank });
    });
  }
  return [...byKey.values()];
}

function resultOf(group: PageGroup, k: number): Omit<FusedResult, 'position'> {
  const score = group.foundBy.reduce((sum, { rank }) => sum + 1 / (k + rank), 0);
  // Best rank first; among equal ranks, the list given first.
  const byRank = [...group.sightings].sort((a, b) => a.rank - b.rank);
  const publishedAt = byRank.find((s) => s.hit.publishedAt)?.hit.publishedAt;
  return {
    title: bestTitle(byRank, group.url),
    url: group.url,
    snippet: byRank.reduce((longest, { hit }) => (hit.snippet.length > longest.length ? hit.snippet : longest), ''),
    domain: siteHost(group.url),
    score: Math.round(score * 1e6) / 1e6,
    foundBy: group.foundBy,
    ...(publishedAt ? { publishedAt } : {}),
  };
}

/** The best-ranked engine's title, passing over titles that are empty or only repeat the link. */
function bestTitle(byRank: readonly Sighting[], url: string): string {
  const isReal = (title: string) => title.trim() !== '' && !/^https?:\/\//i.test(title.trim());
  return byRank.find((s) => isReal(s.hit.title))?.hit.title ?? byRank[0]?.hit.title ?? url;
}

function bestRank(result: Pick<FusedResult, 'foundBy'>): number {
  return Math.min(...result.foundBy.map(({ rank }) => rank));
}
