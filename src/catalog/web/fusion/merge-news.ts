// Trending news from several providers as one ranked list: the same story reported by two
// providers becomes one entry, and entries are ordered by how much attention they draw for their age.
//
// Ranking (higher first):
//   score = ln(2 + engagement) × (1 + 0.5 × (providers − 1)) × 0.5^(ageHours / 12)
// - engagement is points + comments where a provider reports them (Hacker News); a story no
//   provider reports figures for (GDELT) counts as ASSUMED_ENGAGEMENT, so among such stories
//   recency alone decides, and a fresh one sits with a fresh, lightly discussed HN post.
// - the logarithm keeps a 2,000-point story from burying everything else; the 12-hour half-life
//   lets a big story hold the top for about a day (a 800-point story a day old scores like a
//   news article just seen) and sink after that. HN's own gravity, (hours + 2)^1.8 against
//   linear points, was not used: against log engagement it would let any new post outrank
//   a six-hour-old front-page story.
// - a story carried by more than one provider is boosted by half per extra provider.
// Ties go to the newer story, then to the smaller canonical URL, so the order is deterministic.
import type { NewsStory } from '../../../upstream/providers/news-story.ts';
import { canonicalUrl } from './canonical-url.ts';

export interface RankedStory extends NewsStory {
  /** Every provider that reported this story, in the order the lists were given. */
  providers: string[];
  /** 1-based place in the merged ranking. */
  position: number;
}

/** The engagement assumed for a story no provider gave figures for (≈ a new post with a few votes). */
const ASSUMED_ENGAGEMENT = 3;
const HALF_LIFE_HOURS = 12;
const EXTRA_PROVIDER_BOOST = 0.5;
/** Normalised titles shorter than this ("ask hn", "update") are too generic to identify a story. */
const MIN_TITLE_KEY_LENGTH = 20;
const HOUR_MS = 3_600_000;

interface StoryGroup {
  members: NewsStory[];
}

export function mergeStories(lists: readonly (readonly NewsStory[])[], now: Date, limit: number): RankedStory[] {
  const groups = groupDuplicates(lists.flat());
  const scored = groups.map((group) => {
    const story = mergedStory(group);
    return { story, score: scoreOf(story, now), urlKey: canonicalUrl(story.url) };
  });
  scored.sort(
    (a, b) =>
      b.score - a.score ||
      Date.parse(b.story.publishedAt) - Date.parse(a.story.publishedAt) ||
      (a.urlKey < b.urlKey ? -1 : a.urlKey > b.urlKey ? 1 : 0),
  );
  return scored.slice(0, Math.max(0, Math.floor(limit))).map(({ story }, index) => ({ ...story, position: index + 1 }));
}

function groupDuplicates(stories: readonly NewsStory[]): StoryGroup[] {
  const groups: StoryGroup[] = [];
  const byUrl = new Map<string, StoryGroup>();
  const byTitle = new Map<string, StoryGroup>();
  for (const story of stories) {
    const urlKeys = [story.url, story.discussionUrl].filter((url): url is string => url !== undefined).map(canonicalUrl);
    const titleKey = titleKeyOf(story.title);
    const group = urlKeys.map((key) => byUrl.get(key)).find(Boolean) ?? (titleKey ? byTitle.get(titleKey) : undefined);
    const target = group ?? { members: [] };
    if (!group) groups.push(target);
    target.members.push(story);
    for (const key of urlKeys) if (!byUrl.has(key)) byUrl.set(key, target);
    if (titleKey && !byTitle.has(titleKey)) byTitle.set(titleKey, target);
  }
  return groups;
}

/**
 * One story from a group: title, link and provider from the first member that links to the story
 * itself (not only to a discussion), figures from whichever member has them, the earliest date.
 */
function mergedStory(group: StoryGroup): Omit<RankedStory, 'position'> {
  const first = group.members[0]!;
  const lead = group.members.find((member) => member.url !== member.discussionUrl) ?? first;
  const points = largest(group.members.map((member) => member.points));
  const comments = largest(group.members.map((member) => member.comments));
  const discussionUrl = group.members.find((member) => member.discussionUrl !== undefined)?.discussionUrl;
  const publishedAt = group.members.map((member) => member.publishedAt).reduce((earliest, at) => (Date.parse(at) < Date.parse(earliest) ? at : earliest));
  return {
    title: lead.title,
    url: lead.url,
    source: lead.source,
    publishedAt,
    ...(points !== undefined ? { points } : {}),
    ...(comments !== undefined ? { comments } : {}),
    ...(discussionUrl !== undefined ? { discussionUrl } : {}),
    provider: lead.provider,
    rank: lead.rank,
    providers: [...new Set(group.members.map((member) => member.provider))],
  };
}

function largest(values: readonly (number | undefined)[]): number | undefined {
  const known = values.filter((value): value is number => value !== undefined);
  return known.length > 0 ? Math.max(...known) : undefined;
}

function scoreOf(story: Omit<RankedStory, 'position'>, now: Date): number {
  const hasFigures = story.points !== undefined || story.comments !== undefined;
  const engagement = hasFigures ? (story.points ?? 0) + (story.comments ?? 0) : ASSUMED_ENGAGEMENT;
  const published = Date.parse(story.publishedAt);
  // An unreadable date or one in the future counts as "just now".
  const ageHours = Number.isNaN(published) ? 0 : Math.max(0, (now.getTime() - published) / HOUR_MS);
  const boost = 1 + EXTRA_PROVIDER_BOOST * (story.providers.length - 1);
  return Math.log(2 + engagement) * boost * 0.5 ** (ageHours / HALF_LIFE_HOURS);
}

/** A title reduced to lower-case letters and digits separated by single spaces, or undefined when too short. */
export function titleKeyOf(title: string): string | undefined {
  const key = title
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
  return key.length >= MIN_TITLE_KEY_LENGTH ? key : undefined;
}
