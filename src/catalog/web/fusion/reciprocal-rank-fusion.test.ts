import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { SearchHit } from '../../../upstream/providers/search-hit.ts';
import { fuseRankings } from './reciprocal-rank-fusion.ts';

function hits(...entries: (string | Partial<SearchHit> & { url: string })[]): SearchHit[] {
  return entries.map((entry, index) => {
    const fields = typeof entry === 'string' ? { url: entry } : entry;
    return { title: `Title of ${fields.url}`, snippet: '', position: index + 1, ...fields };
  });
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

describe('fuseRankings', () => {
  test('sums 1 / (60 + rank) over the engines that found a page', () => {
    const fused = fuseRankings([
      { engine: 'brave', hits: hits('https://a.example/', 'https://b.example/') },
      { engine: 'searxng', hits: hits('https://b.example/', 'https://c.example/') },
    ]);
    assert.deepEqual(
      fused.map((r) => [r.url, r.score]),
      [
        ['https://b.example/', round(1 / 62 + 1 / 61)],
        ['https://a.example/', round(1 / 61)],
        ['https://c.example/', round(1 / 62)],
      ],
    );
    assert.deepEqual(fused[0]?.foundBy, [
      { engine: 'brave', rank: 2 },
      { engine: 'searxng', rank: 1 },
    ]);
    assert.deepEqual(
      fused.map((r) => r.position),
      [1, 2, 3],
    );
  });

  test('agreement beats a single top rank', () => {
    const fused = fuseRankings([
      { engine: 'one', hits: hits('https://solo.example/', 'https://x.example/', 'https://y.example/', 'https://shared.example/') },
      { engine: 'two', hits: hits('https://p.example/', 'https://q.example/', 'https://r.example/', 'https://shared.example/') },
    ]);
    assert.equal(fused[0]?.url, 'https://shared.example/');
  });

  test('k changes how much a top rank weighs', () => {
    const lists = [
      { engine: 'one', hits: hits('https://a.example/') },
      { engine: 'two', hits: hits('https://b.example/', 'https://c.example/') },
    ];
    assert.equal(fuseRankings(lists, { k: 0 })[0]?.score, 1);
    assert.equal(fuseRankings(lists, { k: 1 }).find((r) => r.url === 'https://c.example/')?.score, round(1 / 3));
    assert.throws(() => fuseRankings(lists, { k: -1 }), RangeError);
  });

  test('merges forms of one page: first engine URL form, best-ranked real title, longest snippet', () => {
    const fused = fuseRankings([
      {
        engine: 'duckduckgo',
        hits: hits('https://z.example/', { url: 'http://www.example.com/guide/?utm_source=ddg', title: 'http://www.example.com/guide/', snippet: 'Short.' }),
      },
      {
        engine: 'brave',
        hits: hits({ url: 'https://example.com/guide', title: 'The Guide', snippet: 'A much longer description of the guide.' }),
      },
    ]);
    assert.equal(fused.length, 2);
    const guide = fused[0];
    assert.equal(guide?.url, 'http://www.example.com/guide/?utm_source=ddg');
    assert.equal(guide?.title, 'The Guide');
    assert.equal(guide?.snippet, 'A much longer description of the guide.');
    assert.equal(guide?.domain, 'example.com');
    assert.deepEqual(guide?.foundBy, [
      { engine: 'duckduckgo', rank: 2 },
      { engine: 'brave', rank: 1 },
    ]);
  });

  test('among real titles, the best-ranked engine wins; ties go to the list given first', () => {
    const fused = fuseRankings([
      { engine: 'one', hits: hits('https://x.example/', { url: 'https://page.example/', title: 'From one (rank 2)' }) },
      { engine: 'two', hits: hits({ url: 'https://page.example/', title: 'From two (rank 1)' }) },
      { engine: 'three', hits: hits({ url: 'https://page.example/', title: 'From three (rank 1)' }) },
    ]);
    assert.equal(fused.find((r) => r.url === 'https://page.example/')?.title, 'From two (rank 1)');
  });

  test('an engine listing a page twice counts it once, at its better rank', () => {
    const fused = fuseRankings([{ engine: 'one', hits: hits('https://a.example/x', 'https://b.example/', 'http://a.example/x/') }]);
    assert.equal(fused.length, 2);
    assert.deepEqual(fused[0]?.foundBy, [{ engine: 'one', rank: 1 }]);
    assert.equal(fused[0]?.score, round(1 / 61));
  });

  test('ties: more engines first, then the best single rank, then the URL', () => {
    // With k = 0: 1/2 + 1/2 = 1 (two engines) ties 1/1 (one engine); the two-engine page goes first.
    const byEngines = fuseRankings(
      [
        { engine: 'one', hits: hits('https://solo.example/', 'https://pair.example/') },
        { engine: 'two', hits: hits('https://other.example/', 'https://pair.example/') },
      ],
      { k: 0 },
    );
    assert.deepEqual(
      byEngines.map((r) => r.url),
      ['https://pair.example/', 'https://other.example/', 'https://solo.example/'],
    );
    // Same score and engine count: 1/3 + 1/6 = 1/2 = 1/4 + 1/4; the page with rank 3 beats the one with ranks 4 and 4.
    const byRank = fuseRankings(
      [
        { engine: 'one', hits: hits('https://n1.example/', 'https://n2.example/', 'https://early.example/', 'https://even.example/') },
        { engine: 'two', hits: hits('https://m1.example/', 'https://m2.example/', 'https://m3.example/', 'https://even.example/', 'https://m5.example/', 'https://early.example/') },
      ],
      { k: 0 },
    );
    const early = byRank.findIndex((r) => r.url === 'https://early.example/');
    const even = byRank.findIndex((r) => r.url === 'https://even.example/');
    assert.equal(byRank[early]?.score, byRank[even]?.score);
    assert.ok(early < even);
    // Same score, engines and best rank: by URL.
    const byUrl = fuseRankings([
      { engine: 'one', hits: hits('https://b.example/') },
      { engine: 'two', hits: hits('https://a.example/') },
    ]);
    assert.deepEqual(
      byUrl.map((r) => r.url),
      ['https://a.example/', 'https://b.example/'],
    );
  });

  test('is deterministic whatever order equal pages arrive in', () => {
    const lists = [
      { engine: 'one', hits: hits('https://c.example/', 'https://a.example/') },
      { engine: 'two', hits: hits('https://a.example/', 'https://c.example/') },
    ];
    const forward = fuseRankings(lists).map((r) => r.url);
    const reversed = fuseRankings([...lists].reverse()).map((r) => r.url);
    assert.deepEqual(forward, reversed);
    assert.deepEqual(forward, ['https://a.example/', 'https://c.example/']);
  });

  test('keeps a publication date from the best-ranked engine that gave one', () => {
    const fused = fuseRankings([
      { engine: 'one', hits: hits('https://x.example/', { url: 'https://news.example/story', publishedAt: '2026-01-02T00:00:00.000Z' }) },
      { engine: 'two', hits: hits({ url: 'https://news.example/story' }) },
    ]);
    const story = fused.find((r) => r.url === 'https://news.example/story');
    assert.equal(story?.publishedAt, '2026-01-02T00:00:00.000Z');
    assert.equal(
      fused.find((r) => r.url === 'https://x.example/')?.publishedAt,
      undefined,
    );
    assert.ok(!('publishedAt' in (fused.find((r) => r.url === 'https://x.example/') ?? {})));
  });

  test('no lists, or only empty ones, fuse to nothing', () => {
    assert.deepEqual(fuseRankings([]), []);
    assert.deepEqual(fuseRankings([{ engine: 'one', hits: [] }]), []);
  });
});
