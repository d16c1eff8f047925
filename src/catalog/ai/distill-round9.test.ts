// Issue 24, round 9: failure classes read in fresh set 7's losses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readHtml } from './distill/read-html.ts';
import { readText } from './distill/read-text.ts';
import { readMarkdown } from './distill/read-markdown.ts';
import { openingOf } from './distill/opening-text.ts';
import { licenceNotices, noticeCount, noticesText } from './distill/licence-notices.ts';
import { isUniversalOption, keywordOf } from './distill/key-facts.ts';
import { extractEntities } from './distill/facts.ts';
import { definitionsOf } from './distill/definitions.ts';
import { readDebianChangelog } from './distill/read-debian-changelog.ts';
import { oncePerName, rankKeywords, withSoleValue } from './distill/keywords.ts';

const WRAPPED = [
  'Building a distribution tarball',
  '~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~',
  'To build a distribution tarball from the sources, run the command below in',
  'the top directory of the tree; it will also attempt to build the whole of',
  'the documentation, which takes a while on a slow machine.',
  '',
  '  make dist',
  '',
  'If you only want to test whether the generated tarball is complete and runs',
  'the regression tests successfully, building the documentation is not needed.',
];

test('plain text laid out with <br> in an HTML page is read as paragraphs, its underlined titles as headings', () => {
  const body = `<div class="literallayout"><p><br>\n${WRAPPED.join('<br>\n')}<br>\n</p></div>`;
  const blocks = readHtml(`<html><head><title>README</title></head><body>${body}</body></html>`).blocks;
  assert.deepEqual(blocks[0], { kind: 'heading', level: 3, text: 'Building a distribution tarball' });
  assert.ok(blocks.some((block) => block.kind === 'paragraph' && block.text.startsWith('To build a distribution tarball from the sources, run the command below in the top directory')));
  assert.ok(blocks.some((block) => block.kind === 'code' && block.text === 'make dist'));
});

test('a <pre> of prose is read as plain text; a <pre> of code stays a code block', () => {
  const prose = readHtml(`<html><body><pre>${WRAPPED.join('\n')}</pre></body></html>`).blocks;
  assert.ok(prose.some((block) => block.kind === 'paragraph' && block.text.includes('in the top directory of the tree')));
  const code = 'function add(a, b) {\n  return a + b;\n}\nconst x = add(1, 2);\nconsole.log(x);\nexport { add };';
  assert.deepEqual(readHtml(`<html><body><p>An example of what the library does for you, in a few lines of code:</p><pre>${code}</pre></body></html>`).blocks.at(-1), { kind: 'code', text: code });
});

test('indented command lines in plain text are code; an indented sentence is not', () => {
  const blocks = readText('Run the tests like this:\n\n  perl tests/vg_regtest memcheck\n  perl tests/vg_regtest none\n\nThat is all.\n').blocks;
  assert.deepEqual(blocks[1], { kind: 'code', text: 'perl tests/vg_regtest memcheck\nperl tests/vg_regtest none' });
  const indented = readText('Some text at the margin, long enough to be prose.\n\n  an indented sentence that ends with a full stop.\n').blocks;
  assert.equal(indented[1]!.kind, 'paragraph');
});

test("an option's keyword keeps the argument written with it", () => {
  assert.equal(keywordOf('--context=N'), '--context=N');
  assert.equal(keywordOf('-L, --lang=CATALOGNAME'), '--lang=CATALOGNAME');
  assert.equal(keywordOf('-v, --verbose'), '--verbose');
  assert.deepEqual(oncePerName(['--context=N', '--context', '--auto']), ['--context=N', '--auto']);
});

test('an option the text only writes with one value is listed with it; one written bare or with several values by its name', () => {
  assert.equal(withSoleValue('Run it with --wait-for-gdb=yes. Then --wait-for-gdb=yes again.', '--wait-for-gdb'), '--wait-for-gdb=yes');
  assert.equal(withSoleValue('Use --vg=../a --vg=../b to compare.', '--vg'), '--vg');
  assert.equal(withSoleValue('Pass --tool=memcheck, or --tool=lackey.', '--tool'), '--tool');
  assert.equal(withSoleValue('The --quiet option, as in --quiet=yes.', '--quiet'), '--quiet');
});

test('a version written right after a name is part of the entity', () => {
  const names = extractEntities('The data is licensed under a CC BY 4.0 licence by the NRO. It needs Python 3.11 or later.').map((entity) => entity.text);
  assert.ok(names.includes('CC BY 4.0'));
  assert.ok(names.includes('Python 3.11'));
  assert.ok(!names.includes('CC BY'));
});

test("a quote's empty line ends its paragraph and a GitHub alert's marker is not text", () => {
  const document = readMarkdown('> [!CAUTION]\n> **Notice: data bugs**\n>\n> Updates via npm are deprecated and will stop.\n\n# Title\n');
  assert.deepEqual(document.blocks.slice(0, 2).map((block) => block.text), ['Notice: data bugs', 'Updates via npm are deprecated and will stop.']);
});

test("a licence file's notices come first, every licence named with its first stanza's holders before later stanzas", () => {
  // Round 11: the Debian reader gives a stanza's holders and licence as fields of its block.
  const item = (files: string, holders: string, licence: string) => ({ kind: 'item' as const, text: `Files: ${files}; Copyright: ${holders}; License: ${licence}`, stanza: { holders, licence } });
  const blocks = [item('*', '2018-2022, VideoLAN and dav1d authors', 'BSD-2-clause'), item('getopt.h', 'No copyright claimed', 'public-domain'), item('x86inc.asm', '2005-2019 x264 project', 'ISC'), item('debian/*', '2018-2022 Dylan Aïssi', 'BSD-2-clause')];
  const notices = licenceNotices(blocks);
  assert.equal(notices.blocks.size, 4);
  const text = noticesText(notices, 300, (value) => Math.ceil(value.length / 4));
  assert.equal(text, 'BSD-2-clause: 2018-2022, VideoLAN and dav1d authors; 2018-2022 Dylan Aïssi\npublic-domain: No copyright claimed\nISC: 2005-2019 x264 project');
  // A small share names each licence before it gives a second stanza's holders.
  assert.equal(noticesText(notices, 80, (value) => Math.ceil(value.length / 4)), 'BSD-2-clause: 2018-2022, VideoLAN and dav1d authors; …\npublic-domain: No copyright claimed');
});

test('a bundle of copyright notices is a licence whatever its first line says, its holders listed first', () => {
  const notice = (holder: string) => `Copyright (c) 1993, 2011, ${holder}. All rights reserved.\n\nPermission to use, copy, modify, distribute, and sell this software and its documentation for any purpose is hereby granted without fee, provided that the above copyright notice appear in all copies.\n\n`;
  const text = `This package was downloaded from\nhttp://example.org/releases/\n\n${['Oracle and/or its affiliates', 'Keith Packard', 'The Open Group'].map(notice).join('')}`;
  const document = readText(text);
  assert.equal(noticeCount(document.blocks), 3);
  assert.deepEqual(licenceNotices(document.blocks).entries.map((entry) => entry.holders[0]), ['Copyright (c) 1993, 2011, Oracle and/or its affiliates', 'Copyright (c) 1993, 2011, Keith Packard', 'Copyright (c) 1993, 2011, The Open Group']);
});

test('options every program has are not listed or quoted; a list of choices is not an option\'s value', () => {
  assert.ok(isUniversalOption('-h, --help'));
  assert.ok(isUniversalOption('--version'));
  assert.ok(!isUniversalOption('--verbose'));
  assert.equal(withSoleValue('Sort with --sort=A,B,C as you like.', '--sort'), '--sort');
  assert.equal(keywordOf('--sort=A,B,C'), '--sort');
});

test('an option whose term carries its default in brackets, or a list as its argument, is defined', () => {
  const blocks = [
    { kind: 'item' as const, text: '--threshold=<0--100> [default: 99%] — Percentage of counts we are interested in.' },
    { kind: 'item' as const, text: '--sort=A,B,C — Sort columns by events A,B,C.' },
    { kind: 'item' as const, text: '-o FILE, --output=FILE — Write to FILE.' },
  ];
  assert.deepEqual(
    definitionsOf(blocks).map((definition) => [definition.term, definition.meaning]),
    [
      ['--threshold=<0--100>', 'Percentage of counts we are interested in. (default: 99%)'],
      ['--sort=A,B,C', 'Sort columns by events A,B,C.'],
      ['-o FILE, --output=FILE', 'Write to FILE.'],
    ],
  );
});

test('a numbered step that is a sentence is a list item (a quoted word counts by its own first letter); a numbered title in title case stays a heading', () => {
  const blocks = readText('Building it\n\n  1. cd into the source directory.\n\n  2. Run "make".\n\n1. Definitions.\n\nThe words used here mean what follows in this text.\n').blocks;
  assert.deepEqual(blocks.map((block) => [block.kind, block.text]), [
    ['heading', 'Building it'],
    ['item', 'cd into the source directory.'],
    ['item', 'Run "make".'],
    ['heading', '1. Definitions.'],
    ['paragraph', 'The words used here mean what follows in this text.'],
  ]);
});

test("the names a code line lists (a CSV header, a format's fields) are keywords", () => {
  const keywords = rankKeywords('The CSV format has four columns.', '', [], new Set(), 'ip_range_start, ip_range_end, autonomous_system_number, autonomous_system_organization').map((keyword) => keyword.text);
  assert.deepEqual(keywords.slice(0, 4), ['ip_range_start', 'ip_range_end', 'autonomous_system_number', 'autonomous_system_organization']);
  assert.deepEqual(rankKeywords('Some text here.', '', [], new Set(), 'const a = f(b, c, d);').map((keyword) => keyword.text), []);
});

test("a Debian changelog's team upload names who made its changes beside its maintainer", () => {
  const changelog = 'boost1.74 (1.74.0+ds1-21) unstable; urgency=medium\n\n  [ Andreas Beckmann ]\n  * Add Breaks for smoother upgrades. (Closes: #1036070)\n\n  [ Anton Gladky ]\n  * Fix tests.\n\n -- Anton Gladky <gladk@debian.org>  Fri, 19 May 2023 09:24:56 +0200\n\nboost1.74 (1.74.0+ds1-20) unstable; urgency=medium\n\n  * Better handling of the version.\n\n -- Anton Gladky <gladk@debian.org>  Mon, 30 Jan 2023 09:24:56 +0200\n';
  const releases = readDebianChangelog(changelog).releases!;
  assert.equal(releases[0]!.by, 'Anton Gladky; changes by Andreas Beckmann');
  assert.equal(releases[1]!.by, 'Anton Gladky');
});

test('a middle initial is part of the name', () => {
  const names = extractEntities('Copyright 2003 Thomas E. Dickey and John Smith.').map((entity) => entity.text);
  assert.ok(names.includes('Thomas E. Dickey'));
  assert.ok(!names.includes('Thomas E'));
});

test('a table-of-contents label standing as a paragraph is not quoted in the opening', () => {
  const document = readMarkdown('# Tool\n\n<details>\n<summary>Table of Contents</summary>\n\n- [Install](#install)\n\n</details>\n\nTool converts files between formats quickly.\n');
  const opening = openingOf(document, 'Tool', 100, (text) => Math.ceil(text.length / 4)).text;
  assert.equal(opening, 'Tool converts files between formats quickly.');
});
