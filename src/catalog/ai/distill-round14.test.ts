// Issue 24, round 14: failure classes read in fresh set 12's losses, each fixed for its class.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readMarkdown } from './distill/read-markdown.ts';
import { commentRuns, readText } from './distill/read-text.ts';
import { isProseLayout } from './distill/read-html-layout.ts';
import { openingOf } from './distill/opening-text.ts';
import { keyFactsOf } from './distill/key-facts.ts';
import { sentenceCandidates } from './distill/rank-sentences.ts';
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
  const answer = await distill(changelog, undefined, {});
  assert.match(answer.summary, /^All notable changes to this project will be documented in this file\.\n3 releases, from v1\.0\.0 - 2016-09-19 to v1\.1\.0 \(2024-12-02\)\.$/);
});

test("shell comments are prose, a lone '#' parts two of them, and the lines between them are code", () => {
  const text = [
    'Install the NDK somewhere.  Then:',
    '',
    '# Modify this (obviously).  Note, this "export" command is only done',
    '# so as to reduce the amount of typing required.',
    '#',
    'export NDKROOT=/path/to/android-ndk-r<version>',
    '# Set up toolchain paths.',
    '#',
    '# For ARM',
    'export AR=$NDKROOT/bin/arm-linux-androideabi-ar',
    'export CC=$NDKROOT/bin/arm-linux-androideabi-gcc',
  ].join('\n');
  assert.deepEqual(
    readText(text).blocks.map((block) => [block.kind, block.text]),
    [
      ['paragraph', 'Install the NDK somewhere. Then:'],
      ['paragraph', 'Modify this (obviously). Note, this "export" command is only done so as to reduce the amount of typing required.'],
      ['code', 'export NDKROOT=/path/to/android-ndk-r<version>'],
      ['paragraph', 'Set up toolchain paths.'],
      ['paragraph', 'For ARM'],
      ['code', 'export AR=$NDKROOT/bin/arm-linux-androideabi-ar\nexport CC=$NDKROOT/bin/arm-linux-androideabi-gcc'],
    ],
  );
  assert.equal(commentRuns(['# just one heading-like line']), undefined);
});

test('a long text laid out in lines is prose when a quarter of its lines run in words, the rest the commands they explain', () => {
  const prose = 'Do configuration stuff and do not mess with the prefix below';
  const command = 'export AR=$NDKROOT/toolchains/arm/bin/ar';
  // 20 lines of words among 60: prose with its commands. 5 among 15: a listing.
  assert.equal(isProseLayout(Array.from({ length: 20 }, () => [`# ${prose}`, command, command]).flat().join('\n')), true);
  assert.equal(isProseLayout(Array.from({ length: 5 }, () => [`# ${prose}`, command, command]).flat().join('\n')), false);
});

test('a run of one-word list items is quoted in the opening as one line, its first five named and how many there are', () => {
  const readme = ['# colors', '', 'Get color and style in your console.', '', '## text colors', '', ...['black', 'red', 'green', 'yellow', 'blue', 'magenta', 'cyan', 'white'].map((colour) => `  - ${colour}`), '', '## Usage', '', '- a sentence item, not one word'].join('\n');
  const document = readMarkdown(readme);
  const opening = openingOf(document, 'colors', 300, (text) => text.length, document.blocks.length, undefined, 'compact');
  assert.equal(opening.text, 'Get color and style in your console.\nblack, red, green, yellow, blue, … (8 items)\na sentence item, not one word');
  // Quoted verbatim (a licence's opening), each item keeps its line.
  assert.match(openingOf(document, 'colors', 300, (text) => text.length).text, /\nblack\nred\n/);
});

test('a document gives up to five commands as facts, not three', () => {
  const readme = ['# tools', '', 'Install what you need:', '', ...['a', 'b', 'c', 'd', 'e', 'f'].map((name) => `\`\`\`sh\nnpm install tool-${name}\n\`\`\``)].join('\n');
  const { blocks } = readMarkdown(readme);
  const commands = keyFactsOf(blocks, [], '', { command: 1 }).filter((fact) => fact.kind === 'command');
  assert.deepEqual(commands.map((fact) => fact.fact), ['npm install tool-a', 'npm install tool-b', 'npm install tool-c', 'npm install tool-d', 'npm install tool-e']);
});

test('a sentence introducing code carries its first line when that is one short statement of code', () => {
  const guide = [
    '# Plugins',
    '',
    'The required plugins must expose a single function with',
    'the following signature',
    '```js',
    'module.exports = function (fastify, options, done) {}',
    '```',
    'Creating a decorator is extremely easy, just use the `decorate` API:',
    '```js',
    "fastify.decorate('util', (a, b) => a + b)",
    '```',
    'Install it with:',
    '```sh',
    'npm install fastify',
    '```',
    'This sentence ends with a full stop.',
    '```js',
    'fastify.register(plugin)',
    '```',
  ].join('\n');
  assert.deepEqual(
    sentenceCandidates(readMarkdown(guide).blocks).map((candidate) => candidate.text),
    [
      'The required plugins must expose a single function with the following signature: module.exports = function (fastify, options, done) {}',
      "Creating a decorator is extremely easy, just use the decorate API: fastify.decorate('util', (a, b) => a + b)",
      // Too short to rank either way; a shell line would be left to the command facts.
      'This sentence ends with a full stop.',
    ],
  );
});
