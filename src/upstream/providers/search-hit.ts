// One result of one search engine, as every search provider client returns it.
export interface SearchHit {
  title: string;
  /** Absolute http(s) URL of the result (redirect wrappers already removed). */
  url: string;
  /** Plain text, no markup. Empty when the engine gave none. */
  snippet: string;
  /** 1-based rank within this engine's answer. */
  position: number;
  /** ISO 8601, when the engine says when the page or story was published. */
  publishedAt?: string;
  /** Engine-specific facts worth keeping (score, answer count, points...). */
  extra?: Readonly<Record<string, string | number | boolean>>;
}
