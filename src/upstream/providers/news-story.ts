// One news story as the news provider clients return it (Hacker News, GDELT), before merging.
export interface NewsStory {
  title: string;
  /** Absolute http(s) URL of the story; for a Hacker News post without a link, its discussion page. */
  url: string;
  /** The site's host without "www." ("thehindu.com"), or news.ycombinator.com for a post without a link. */
  source: string;
  /** ISO 8601 UTC: when the story was posted (Hacker News) or first seen (GDELT). */
  publishedAt: string;
  points?: number;
  comments?: number;
  /** Where the story is discussed (the Hacker News item page). */
  discussionUrl?: string;
  /** The provider id, e.g. "hn-algolia". */
  provider: string;
  /** 1-based rank within that provider's answer. */
  rank: number;
}
