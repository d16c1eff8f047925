import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { NewsStory } from '../../../upstream/providers/news-story.ts';
import { mergeStories, titleKeyOf } from './merge-news.ts';

const now = new Date('2025-01-01T12:00:00Z');

function hoursAgo(hours: number): string {
  return new Date(now.getTime() - hours * 3_600_000).toISOString();
}

let nextItemId = 1;

function hn(overrides: Partial<NewsStory> & Pick<NewsStory, 'title' | 'url'>): NewsStory {
  const discussionUrl = `https://news.ycombinator.com/item?id=${nextItemId++}`;
  return { source: 'example.com', publishedAt: hoursAgo(1), points: 10, comments: 2, discussionUrl, provider: 'hn-algolia', rank: 1, ...overrides };
}

function gdelt(overrides: Partial<NewsStory> & Pick<NewsStory, 'title' | 'url'>): NewsStory {
  return { source: 'example.com', publishedAt: hoursAgo(1), provider: 'gdelt', rank: 1, ...overrides };
}

describe('titleKeyOf', () => {
  test('ignores case, accents, punctuation and GDELT-style spacing', () => {
    assert.equal(titleKeyOf('Vizhinjam port : Café  , opens today!'), titleKeyOf('vizhinjam port cafe opens today'));
  });

  test('refuses titles too short to identify a story', () => {
    assert.equal(titleKeyOf('Ask HN: Why?'), undefined);
  });
});

describe('mergeStories', () => {
  test('one story from two providers (same page, different URL spelling) becomes one entry with both providers and HN figures', () => {
    const fromHn = hn({ title: 'Rust 2.0 released', url: 'https://blog.rust-lang.org/2025/01/01/rust-2.html', points: 300, comments: 120, discussionUrl: 'https://news.ycombinator.com/item?id=42', publishedAt: hoursAgo(2) });
    const fromGdelt = gdelt({ title: 'Rust 2.0 Released', url: 'http://www.blog.rust-lang.org/2025/01/01/rust-2.html/?utm_medium=rss', source: 'rust-lang.org', publishedAt: hoursAgo(3), rank: 4 });
    const [merged, ...others] = mergeStories([[fromGdelt], [fromHn]], now, 10);
    assert.equal(others.length, 0);
    assert.deepEqual(merged, {
      title: 'Rust 2.0 Released',
      url: 'http://www.blog.rust-lang.org/2025/01/01/rust-2.html/?utm_medium=rss',
      source: 'rust-lang.org',
      publishedAt: hoursAgo(3),
      points: 300,
      comments: 120,
      discussionUrl: 'https://news.ycombinator.com/item?id=42',
      provider: 'gdelt',
      rank: 4,
      providers: ['gdelt', 'hn-algolia'],
      position: 1,
    });
  });

  test('near-identical titles on different URLs are one story', () => {
    const merged = mergeStories(
      [
        [gdelt({ title: 'Customs grants approval to Vizhinjam International Seaport', url: 'https://thehindu.com/a' })],
        [gdelt({ title: 'Customs grants approval to Vizhinjam International Seaport .', url: 'https://m.thehindu.com/a-amp', provider: 'other' })],
      ],
      now,
      10,
    );
    assert.equal(merged.length, 1);
    assert.deepEqual(merged[0]?.providers, ['gdelt', 'other']);
  });

  test('an Ask HN post (linking only to its discussion) gives way to a member that links to the story', () => {
    const discussion = 'https://news.ycombinator.com/item?id=7';
    const ask = hn({ title: 'The new Widget 3000 teardown is out', url: discussion, source: 'news.ycombinator.com', discussionUrl: discussion });
    const article = gdelt({ title: 'The new Widget 3000 teardown is out', url: 'https://widgets.example/teardown', source: 'widgets.example' });
    const [merged] = mergeStories([[ask], [article]], now, 10);
    assert.equal(merged?.url, 'https://widgets.example/teardown');
    assert.equal(merged?.discussionUrl, discussion);
    assert.equal(merged?.points, 10);
  });

  test('engagement counts, age decays it, and a story carried by two providers is boosted', () => {
    const big = hn({ title: 'Big discussion about compilers today', url: 'https://a.example/1', points: 500, comments: 300, publishedAt: hoursAgo(6) });
    const small = hn({ title: 'Small post about a weekend project', url: 'https://b.example/1', points: 2, comments: 0, publishedAt: hoursAgo(6) });
    const old = hn({ title: 'Big discussion from three days ago', url: 'https://c.example/1', points: 900, comments: 500, publishedAt: hoursAgo(72) });
    const fresh = gdelt({ title: 'Fresh wire report on the election', url: 'https://d.example/1', publishedAt: hoursAgo(0.5) });
    const shared = [gdelt({ title: 'Report carried by both providers here', url: 'https://e.example/1', publishedAt: hoursAgo(6) })];
    const sharedOnHn = gdelt({ title: 'Report carried by both providers here', url: 'https://e.example/1', publishedAt: hoursAgo(6), provider: 'other' });
    const alone = gdelt({ title: 'Report carried by one provider only', url: 'https://f.example/1', publishedAt: hoursAgo(6) });
    const ranked = mergeStories([[big, small, old, fresh, ...shared, alone], [sharedOnHn]], now, 10);
    const order = ranked.map((story) => story.url);
    assert.ok(order.indexOf('https://a.example/1') < order.indexOf('https://b.example/1'), 'more engagement ranks higher at the same age');
    assert.ok(order.indexOf('https://a.example/1') < order.indexOf('https://c.example/1'), 'a three-day-old story sinks below a six-hour-old one');
    assert.ok(order.indexOf('https://e.example/1') < order.indexOf('https://f.example/1'), 'two providers beat one');
    assert.ok(order.indexOf('https://d.example/1') < order.indexOf('https://f.example/1'), 'without figures, newer ranks higher');
    assert.deepEqual(
      ranked.map((story) => story.position),
      [1, 2, 3, 4, 5, 6],
    );
  });

  test('a brand-new post with one point does not outrank a six-hour-old front-page story', () => {
    const frontPage = hn({ title: 'Front page story from this morning', url: 'https://a.example/fp', points: 500, comments: 300, publishedAt: hoursAgo(6) });
    const newPost = hn({ title: 'Brand new post nobody has voted on', url: 'https://b.example/new', points: 1, comments: 0, publishedAt: hoursAgo(0) });
    assert.deepEqual(
      mergeStories([[newPost, frontPage]], now, 10).map((story) => story.url),
      ['https://a.example/fp', 'https://b.example/new'],
    );
  });

  test('ties are broken by recency, then by URL, whatever the input order', () => {
    const a = gdelt({ title: 'Alpha story with a long enough title', url: 'https://z.example/a', publishedAt: hoursAgo(1) });
    const b = gdelt({ title: 'Bravo story with a long enough title', url: 'https://a.example/b', publishedAt: hoursAgo(1) });
    const forward = mergeStories([[a, b]], now, 10).map((story) => story.url);
    const backward = mergeStories([[b, a]], now, 10).map((story) => story.url);
    assert.deepEqual(forward, ['https://a.example/b', 'https://z.example/a']);
    assert.deepEqual(backward, forward);
  });

  test('cuts to the limit', () => {
    const stories = [1, 2, 3].map((n) => gdelt({ title: `Story number ${n} with a long title`, url: `https://x.example/${n}`, publishedAt: hoursAgo(n) }));
    assert.deepEqual(
      mergeStories([stories], now, 2).map((story) => story.url),
      ['https://x.example/1', 'https://x.example/2'],
    );
    assert.deepEqual(mergeStories([stories], now, 0), []);
  });
});
