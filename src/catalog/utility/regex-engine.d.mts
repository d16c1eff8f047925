// Types of regex-engine.mjs.

export interface RegexLimits {
  /** Matches listed at most; later ones are counted, not listed. */
  maxListedMatches: number;
  /** Characters of matched text and captures listed at most, all matches together. */
  maxListedChars: number;
  /** Length of the replaced text at most. */
  maxReplacedChars: number;
}

export interface RegexTask {
  pattern: string;
  flags: string;
  text: string;
  replacement?: string;
  limits: RegexLimits;
}

export interface RegexMatch {
  /** Start of the match in UTF-16 code units, as JavaScript counts. */
  index: number;
  /** End of the match (exclusive). */
  end: number;
  match: string;
  /** Numbered capture groups in order; null for a group that did not take part. */
  captures: (string | null)[];
  /** Named groups, present when the pattern has some. */
  groups?: Record<string, string | null>;
  /** With the d flag: [start, end) of the whole match then of each numbered group. */
  indices?: ([number, number] | null)[];
  /** With the d flag and named groups: [start, end) of each named group. */
  groupIndices?: Record<string, [number, number] | null>;
}

export type RegexOutcome =
  | { ok: true; matchCount: number; matches: RegexMatch[]; truncated: boolean; replaced?: string }
  | { ok: false; code: 'invalid_pattern' | 'result_too_large'; message: string };

export function runRegex(task: RegexTask): RegexOutcome;

export function substitute(
  matched: string,
  text: string,
  position: number,
  captures: (string | undefined)[],
  namedCaptures: Record<string, string | undefined> | undefined,
  template: string,
  maxLength?: number,
): string | undefined;
