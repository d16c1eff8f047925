// Issue 24, round 11: failure classes read in fresh set 9's losses and in the tuned sets.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readDebianChangelog } from './distill/read-debian-changelog.ts';
import { releasesSummary } from './distill/distill-document.ts';
import { readMarkdown } from './distill/read-markdown.ts';
import { readDebianCopyright } from './distill/read-debian-copyright.ts';
import { licenceNotices } from './distill/licence-notices.ts';
import { keyFactsOf } from './distill/key-facts.ts';

const debian = [
  'libxcb (1.15-1) unstable; urgency=medium',
  '',
  '  * New upstream release.',
  '',
  ' -- Timo Aaltonen <tjaalton@debian.org>  Thu, 04 Aug 2022 12:34:56 +0300',
  '',
  'libxcb (1.14-3) unstable; urgency=medium',
  '',
  "  * tests: don't use deprecated fail_unless check API.",
  '',
  ' -- Julien Cristau <jcristau@debian.org>  Mon, 01 Feb 2021 10:00:00 +0100',
  '',
].join('\n');

test("a Debian changelog keeps its headers' own spelling: the package with its version in brackets", () => {
  const read = readDebianChangelog(debian);
  assert.deepEqual(
    read.blocks.filter((block) => block.kind === 'heading' && block.level === 2).map((block) => block.text),
    ['libxcb (1.15-1) unstable', 'libxcb (1.14-3) unstable'],
  );
  // A release still gives its version and date alone, as the other changelogs' do.
  assert.equal(read.releases?.[0]?.version, '1.15-1');
  assert.equal(read.releases?.[0]?.date, '04 Aug 2022');
});

test("a Debian changelog's summary names its newest upload as the header and trailer write it", () => {
  const read = readDebianChangelog(debian);
  assert.equal(read.newest, 'libxcb (1.15-1), Thu, 04 Aug 2022');
  assert.equal(releasesSummary(read.releases!, read.newest), '2 releases, from 1.14-3 (01 Feb 2021) to libxcb (1.15-1), Thu, 04 Aug 2022.');
  assert.equal(releasesSummary(read.releases!), '2 releases, from 1.14-3 (01 Feb 2021) to 1.15-1 (04 Aug 2022).');
});

test('a nested Markdown list indented with tabs is read as items, not run on into its parent item with its marks', () => {
  const texts = readMarkdown('# x\n\n* Follows ENSIP-15\n\t* Unicode: `17.0.0`\n\t* Other implementations:\n\t\t* Python\n').blocks.map((block) => block.text);
  assert.deepEqual(texts.slice(1), ['Follows ENSIP-15', 'Unicode: 17.0.0', 'Other implementations:', 'Python']);
});

test("a Debian copyright file's files stanza gives its holders and licence as fields of its block, which the notices read", () => {
  const read = readDebianCopyright(
    [
      'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/',
      'Upstream-Name: libglvnd',
      '',
      'Files: *',
      'Copyright: 2013-2017 NVIDIA Corporation',
      '           2010 Intel Corporation',
      'License: MIT',
      '',
      'Files: debian/*',
      'Copyright: 2013 Timo Aaltonen <tjaalton@ubuntu.com>',
      'License: MIT',
      '',
      'Files: src/util/uthash/*',
      'License: BSD-1-clause',
      '',
    ].join('\n'),
  );
  const stanzas = read.blocks.flatMap((block) => (block.kind === 'item' && block.stanza ? [block.stanza] : []));
  assert.deepEqual(stanzas, [
    { holders: '2013-2017 NVIDIA Corporation 2010 Intel Corporation', licence: 'MIT' },
    { holders: '2013 Timo Aaltonen', licence: 'MIT' },
  ]);
  // A stanza without holders gives no notice; a licence's stanzas are one entry.
  assert.deepEqual(licenceNotices(read.blocks).entries, [{ licence: 'MIT', holders: ['2013-2017 NVIDIA Corporation 2010 Intel Corporation', '2013 Timo Aaltonen'] }]);
});

test('a command line introduced by a sentence may pass shell variables: sessreg -a -l $DISPLAY … $USER', () => {
  const blocks = [
    { kind: 'paragraph' as const, text: 'In Xstartup, place a call like:' },
    { kind: 'code' as const, text: '       sessreg -a -l $DISPLAY -x /etc/X11/xdm/Xservers $USER' },
  ];
  const commands = keyFactsOf(blocks, [], '').filter((fact) => fact.kind === 'command');
  assert.deepEqual(commands.map((fact) => fact.fact), ['sessreg -a -l $DISPLAY -x /etc/X11/xdm/Xservers $USER']);
});
