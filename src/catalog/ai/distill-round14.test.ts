// Issue 24, round 14: failure classes read in fresh set 12's losses, each fixed for its class.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readMarkdown } from './distill/read-markdown.ts';
import { headerAsWritten, releasesOf } from './distill/releases.ts';
import { distill, releasesSummary } from './distill/distill-document.ts';

test("a commit's id closing a changelog entry (auto-changelog's link) is dropped; a word or number of hex letters is kept", () => {
  const changelog = [
    '# Changelog',
    '## [v1.1.0](https://example.com/compare/v1.0.3...v1.1.0) - 2024-12-02',
    '- [New] add types [`6469cbf`](https://example.com/commit/6469cbf0a1)',
    '- [Fix] handle the `deadbeef` case [`1a2b3c4d5e6f`](https://example.com/commit/1a2b3c4d5e6f)',
    '- bump to 1234567 and add facade',
    '## [v1.0.3](https://example.com/compare/v1.0.2...v1.0.3) - 2022-03-01',
    '- [actions] reuse common workflows [`01d0ee0`](https://example.com/commit/01d0ee0)',
    '## v1.0.0 - 2016-09-19',
    '- Initial commit [`a5c4e56`](https://example.com/commit/a5c4e56)',
  ].join('\n');
  const releases = releasesOf(readMarkdown(changelog).blocks);
  assert.deepEqual(
    releases.map((release) => release.changes),
    [['New add types', 'Fix handle the deadbeef case', 'bump to 1234567 and add facade'], ['actions reuse common workflows'], ['Initial commit']],
  );
});

test("a changelog's span names its oldest release as its header writes it, and follows the preface when there is one", async () => {
  const changelog = [
    '# Changelog',
    '',
    'All notable changes to this project will be documented in this file.',
    '',
    '## [v1.1.0](https://example.com/compare/v1.0.3...v1.1.0) - 2024-12-02',
    '- [New] add types [`6469cbf`](https://example.com/commit/6469cbf0a1)',
    '## [v1.0.3](https://example.com/compare/v1.0.2...v1.0.3) - 2022-03-01',
    '- [actions] reuse common workflows',
    '## v1.0.0 - 2016-09-19',
    '- Initial commit',
  ].join('\n');
  const { blocks } = readMarkdown(changelog);
  assert.equal(headerAsWritten(blocks, 'v1.0.0'), 'v1.0.0 - 2016-09-19');
  const releases = releasesOf(blocks);
  assert.equal(releasesSummary(releases, undefined, headerAsWritten(blocks, releases.at(-1)!.version)), '3 releases, from v1.0.0 - 2016-09-19 to v1.1.0 (2024-12-02).');
  const answer = await distill(changelog);
  assert.match(answer.summary, /^All notable changes to this project will be documented in this file\.\n3 releases, from v1\.0\.0 - 2016-09-19 to v1\.1\.0 \(2024-12-02\)\.$/);
});
