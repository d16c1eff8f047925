// Reading each kind of document right (issue 24, round 3): manuals that number their sections,
// Texinfo pages, changelogs, plain text, man pages, option references; one test per rule.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { distill } from './distill/distill-document.ts';
import { definitionsOf } from './distill/definitions.ts';
import { documentKind } from './distill/document-kind.ts';
import { keyFactsOf } from './distill/key-facts.ts';
import { readDebianChangelog } from './distill/read-debian-changelog.ts';
import { readHtml } from './distill/read-html.ts';
import { readMarkdown } from './distill/read-markdown.ts';
import { readText } from './distill/read-text.ts';
import { readTroff } from './distill/read-troff.ts';
import { releasesOf } from './distill/releases.ts';


describe('a manual numbering its sections is no changelog', () => {
  test('"1.1 Description", "2.3 Comments" are section titles; "1.2.0", "v1.1", "2.0 (2020-01-01)" head releases', () => {
    const manual = readMarkdown(['## 1.1 Description', '', 'What it is.', '', '## 1.2 Command Line Options', '', 'The options.', '', '## 2.1 Numbers', '', 'Numbers.', '', '## 2.2 Variables', '', 'Names.'].join('\n'));
    assert.deepEqual(releasesOf(manual.blocks), []);
    const changelog = readMarkdown(['## 1.2.0', '', '- Fix a crash.', '', '## v1.1', '', '- Add a flag.', '', '## 1.0 (2020-01-01)', '', '- First release.'].join('\n'));
    assert.deepEqual(
      releasesOf(changelog.blocks).map((release) => release.version),
      ['1.2.0', 'v1.1', '1.0'],
    );
  });
});

describe('Texinfo and similar HTML generators', () => {
  const page = [
    '<html><head><title>The Closure API (libffi: the portable foreign function interface library)</title></head><body>',
    '<div class="section"><h3>2.5 The Closure API</h3>',
    '<p>libffi also provides a way to write a generic function that can accept and decode any combination of arguments, which is useful when writing an interpreter or wrappers for arbitrary functions of many kinds.</p>',
    '<dl class="def"><dt><span class="category">Function: </span><span><strong>void</strong> <em>ffi_closure_free (void *<var>writable</var>)</em><a href="#index-x" class="copiable-anchor"> &para;</a></span></dt>',
    '<dd><p>Free memory allocated using ffi_closure_alloc. The argument is the writable address that was returned.</p></dd></dl>',
    '<dl class="def"><dt><span class="category">Macro: </span><span><strong>FFI_CLOSURES</strong><a href="#index-y" class="copiable-anchor"> &para;</a></span></dt>',
    '<dd><p>Defined when closures are supported on the current platform.</p></dd></dl>',
    '</div></body></html>',
  ].join('\n');

  test('a definition line "Function: void name (args) ¶" defines the name with its arguments, without the permalink', () => {
    const definitions = definitionsOf(readHtml(page).blocks);
    assert.deepEqual(
      definitions.map((definition) => [definition.term, definition.meaning]),
      [
        ['ffi_closure_free(void *writable)', 'Free memory allocated using ffi_closure_alloc.'],
        ['FFI_CLOSURES', 'Defined when closures are supported on the current platform.'],
      ],
    );
  });

  test('a page title Readability cuts to a fragment ("the portable … library)") is kept whole', () => {
    assert.equal(readHtml(page).title, 'The Closure API (libffi: the portable foreign function interface library)');
  });
});

describe('changelogs', () => {
  const debian = [
    'pkg (2.0-1) bookworm-security; urgency=medium',
    '',
    '  * Fix CVE-2025-1 in the parser.',
    '  * Non-maintainer upload.',
    '',
    ' -- Jane Doe <jane@example.org>  Thu, 03 Apr 2025 21:55:39 +0200',
    '',
    'pkg (1.9-2) unstable; urgency=medium',
    '',
    '  * Non-maintainer upload.',
    '  * Import 1.9.',
    '',
    ' -- Jane Doe <jane@example.org>  Wed, 01 Feb 2023 17:41:36 +0100',
    '',
    'pkg (1.9-1) unstable; urgency=medium',
    '',
    '  * Non-maintainer upload.',
    '',
    ' -- John Roe <john@example.org>  Wed, 11 Jan 2023 23:00:00 +0100',
    '',
    'pkg (1.8-1) unstable; urgency=medium',
    '',
    '  * Non-maintainer upload.',
    '  * Update translations.',
    '',
    ' -- John Roe <john@example.org>  Tue, 10 Jan 2023 23:00:00 +0100',
    '',
  ].join('\n');

  test('an entry repeated in three releases is routine: dropped from older releases, after the own entries of the newest', () => {
    const { releases } = readDebianChangelog(debian);
    assert.deepEqual(
      releases?.map((release) => release.changes),
      [['Fix CVE-2025-1 in the parser.', 'Non-maintainer upload.'], ['Import 1.9.'], ['Non-maintainer upload.'], ['Update translations.']],
    );
  });

  test('a Debian upload names its suite when it is not unstable', () => {
    const { releases } = readDebianChangelog(debian);
    assert.equal(releases?.[0]?.distribution, 'bookworm-security');
    assert.equal(releases?.[1]?.distribution, undefined);
  });

  test('the maintainer is named where it changes, not on every release; the versions are not listed again as numbers', async () => {
    const answer = await distill(debian, undefined, { maxTokens: 2000 });
    assert.deepEqual(
      answer.releases.map((release) => release.by),
      ['Jane Doe', undefined, 'John Roe', undefined],
    );
    assert.ok(!answer.numbers.some((number) => ['2.0-1', '1.9-2', '1.9-1'].includes(number)), answer.numbers.join(', '));
  });

  test('the span of releases said as a summary counts against the budget', async () => {
    const entries = Array.from({ length: 30 }, (_, i) => `## ${30 - i}.0.0 / 2024-01-${String((i % 28) + 1).padStart(2, '0')}\n\n- Changed the parser of the configuration file in a way that matters to users of release ${30 - i}.\n- Fixed the handling of empty input in the streaming reader.\n`).join('\n');
    const answer = await distill(entries, undefined, { maxTokens: 300 });
    assert.match(answer.summary, /^30 releases, from 1\.0\.0/);
    assert.ok(answer.tokens.output <= 300, String(answer.tokens.output));
  });

  test('the newest release shows its entries in full before older releases are listed (up to half the budget)', async () => {
    const newest = Array.from({ length: 12 }, (_, i) => `  * Feature ${i + 1}: a change of the newest release that a reader of its top would see.`).join('\n');
    const older = Array.from({ length: 6 }, (_, i) => `${5 - i}.0.0 / 2019-0${i + 1}-01\n==================\n\n  * Fixed an old bug number ${i}.\n  * Another old change ${i}.\n`).join('\n');
    const answer = await distill(`6.0.0 / 2020-01-01\n==================\n\n${newest}\n\n${older}`, undefined, { maxTokens: 600 });
    assert.equal(answer.releases[0]?.version, '6.0.0');
    assert.equal(answer.releases[0]?.changes.length, 12, JSON.stringify(answer.releases[0]));
    assert.ok(answer.releases.length >= 2, JSON.stringify(answer.releases));
  });

  test('a preface before the first release is quoted in order, not only its first sentence', async () => {
    const releases = Array.from({ length: 4 }, (_, i) => `## [${4 - i}.0.0] - 2024-0${i + 1}-01\n\n- Changed thing ${i}.\n`).join('\n');
    const preface = '# Changelog\n\nNotable changes to this tool are listed here.\n\nThe output object of the tool is not considered a stable API.\n\n';
    const answer = await distill(`${preface}${releases}`, undefined, { maxTokens: 600 });
    assert.match(answer.summary, /Notable changes to this tool/);
    assert.match(answer.summary, /not considered a stable API/);
    assert.equal(answer.releases[0]?.version, '4.0.0');
  });

  test('a call in an entry keeps its "()" ("Add `router.listRoutes()`"); empty residue of a link ("the parser ()") goes', () => {
    const document = readMarkdown(['2.3.0', '=====', '', '* Add `router.listRoutes()` to list the registered routes', '* Fix a crash in the parser ()', '', '2.2.0', '=====', '', '* Fix a crash.', '', '2.1.0', '=====', '', '* Docs.'].join('\n'));
    assert.deepEqual(releasesOf(document.blocks)[0]!.changes, ['Add router.listRoutes() to list the registered routes', 'Fix a crash in the parser']);
  });

  test('an entry is clipped only past 340 characters: a sentence closing a long entry survives', () => {
    const long = `The open functions returned false when opening failed (for example, when using an incorrect key, nonce, or when input was maliciously or accidentally modified after encryption, which ${'happens '.repeat(8)}often). This version instead returns null.`;
    const document = readMarkdown(['## v1.0.3', '', `- ${long}`, '', '## v1.0.2', '', '- Docs.', '', '## v1.0.1', '', '- Typings.'].join('\n'));
    assert.ok(long.length > 260 && long.length <= 340, String(long.length));
    assert.match(releasesOf(document.blocks)[0]!.changes[0]!, /returns null\.$/);
  });
});

describe('the answer fills its budget', () => {
  test('with content to spare, the answer uses most of its budget rather than stopping at the first estimate', async () => {
    const options = Array.from({ length: 40 }, (_, i) => `       --option-${i}\n              enable feature number ${i} of the program, which changes how the output of the tool is formatted for the reader`).join('\n\n');
    const page = `NAME\n       tool - format things\n\nSYNOPSIS\n       tool [OPTION]... [FILE]...\n\nDESCRIPTION\n       Tool formats things for people who read them in a terminal and want them short.\n\n${options}\n`;
    const answer = await distill(page, undefined, { maxTokens: 600 });
    assert.ok(answer.tokens.output <= 600, String(answer.tokens.output));
    assert.ok(answer.tokens.output >= 0.92 * 600, String(answer.tokens.output));
  });
});

describe('plain text', () => {
  test('a numbered clause wrapping back to the left margin mid-sentence is one item', () => {
    const document = readText(['TERMS', '', "  1. You may copy and distribute verbatim copies of the Program's source", 'code as you receive it, in any medium, provided that you publish a notice', 'General Public License and to the absence of any warranty.', '', '  2. You may modify your copy or copies of the Program or any portion of it.', ''].join('\n'));
    const items = document.blocks.filter((block) => block.kind === 'item').map((block) => block.text);
    assert.deepEqual(items, [
      "You may copy and distribute verbatim copies of the Program's source code as you receive it, in any medium, provided that you publish a notice General Public License and to the absence of any warranty.",
      'You may modify your copy or copies of the Program or any portion of it.',
    ]);
  });

  test('a licence that quotes its notice in three blocks of code is still a licence', () => {
    const notice = '    Copyright (C) 19yy  <name of author>\n    <signature of Ty Coon>, 1 April 1989';
    const terms = Array.from({ length: 6 }, (_, i) => `  ${i + 1}. You may copy and distribute verbatim copies of the licence, provided that the copyright notice and the warranty disclaimer are kept; distribution is permitted under the terms of this license.`).join('\n\n');
    const document = readText(['GNU GENERAL PUBLIC LICENSE', 'Version 1, February 1989', '', terms, '', 'How to apply:', '', notice, '', 'Also:', '', notice, '', 'And:', '', notice, '', `${'The licence and its warranty terms apply to every copy you distribute, and the copyright holder permits this. '.repeat(12)}`].join('\n'));
    assert.equal(document.blocks.filter((block) => block.kind === 'code').length, 3);
    assert.equal(documentKind(document, 'GNU GENERAL PUBLIC LICENSE, Version 1, February 1989', [], definitionsOf(document.blocks), 'text'), 'licence');
  });
});

describe('commands', () => {
  test('an install line written as inline code on its own line is a command fact', () => {
    const document = readMarkdown(['# fastq', '', 'Fast, in memory work queue.', '', '## Install', '', '`npm i fastq --save`', '', '## Usage', '', 'Call it with a worker.'].join('\n'));
    const facts = keyFactsOf(document.blocks, [], document.blocks.map((block) => block.text).join('\n'));
    assert.deepEqual(
      facts.filter((fact) => fact.kind === 'command').map((fact) => fact.fact),
      ['npm i fastq --save'],
    );
  });

  test('a one-line shell command introduced by a sentence ending in a colon is a command fact, with that sentence; code after a colon is not', () => {
    const document = readMarkdown(['# tool', '', 'Use this command line:', '', '```', 'valgrind --leak-check=yes myprog arg1', '```', '', 'Then call it from code:', '', '```js', "const x = tool.run({ level: 2 })", '```'].join('\n'));
    const facts = keyFactsOf(document.blocks, [], document.blocks.map((block) => block.text).join('\n'));
    assert.deepEqual(
      facts.filter((fact) => fact.kind === 'command').map((fact) => [fact.fact, fact.sentence]),
      [['valgrind --leak-check=yes myprog arg1', 'Use this command line:']],
    );
  });

  test('a sentence naming a command in running text is not one', () => {
    const document = readMarkdown(['# tool', '', 'You can run `npm install tool` and then start it with the usual options.'].join('\n'));
    const facts = keyFactsOf(document.blocks, [], document.blocks.map((block) => block.text).join('\n'));
    assert.deepEqual(facts.filter((fact) => fact.kind === 'command'), []);
  });
});


describe('man pages', () => {
  test('troff from Asciidoctor or DocBook: a term on its own line, then its meaning indented (.RS/.RE), is one item; control lines are no text', () => {
    const page = ['.TH "COLUMN" "1" "2022-08-04" "util-linux 2.38.1"', '.if n .\\{\\', '.  mso www.tmac', '.  .', '.\\}', '.SH "OPTIONS"', '.sp', '\\fB\\-o, \\-\\-output\\-separator\\fP \\fIstring\\fP', '.RS 4', 'Specify the columns delimiter for table output (default is two spaces).', '.RE', '.sp', 'A paragraph after the list.'].join('\n');
    const document = readTroff(page);
    assert.deepEqual(
      document.blocks.map((block) => [block.kind, block.text]),
      [
        ['heading', 'OPTIONS'],
        ['item', '-o, --output-separator string — Specify the columns delimiter for table output (default is two spaces).'],
        ['paragraph', 'A paragraph after the list.'],
      ],
    );
  });

  test('a rendered page: a short option with its meaning on the same line, in the meanings\' column, is an item like the others', () => {
    const page = ['DESCRIPTION', '       Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY and more.', '', '       -a, --archive', '              same as -dR --preserve=all', '', '       -b     like --backup but does not accept an argument', '', '       -l, --link', '              hard link files instead of copying', '', '       --help display this help and exit', ''].join('\n');
    const items = readText(page).blocks.filter((block) => block.kind === 'item').map((block) => block.text);
    assert.deepEqual(items, ['-a, --archive — same as -dR --preserve=all', '-b — like --backup but does not accept an argument', '-l, --link — hard link files instead of copying', '--help — display this help and exit']);
  });

  test('an indented paragraph of running words naming options is prose, not code', () => {
    const page = ['DESCRIPTION', '       Copy SOURCE to DEST, or multiple SOURCE(s) to DIRECTORY and more.', '', '       When --reflink[=always] is specified, perform a lightweight copy, where', '       the data blocks are copied only when modified.', ''].join('\n');
    const blocks = readText(page).blocks;
    assert.ok(blocks.some((block) => block.kind === 'paragraph' && block.text.startsWith('When --reflink[=always] is specified')), JSON.stringify(blocks));
  });
});

describe('option references', () => {
  test('a heading naming an option with its type ("asObject (Boolean)", "level: string") defines the option', () => {
    const document = readMarkdown(['# Browser API', '', '## Options', '', '### `asObject` (Boolean)', '', 'The asObject option will create a log object instead of passing all arguments to a console method.', '', '### transmit (Object)', '', 'The transmit object sends log events to a remote server.', '', '### Installation (optional)', '', 'Not an option at all, just a section of the page.'].join('\n'));
    assert.deepEqual(
      definitionsOf(document.blocks).map((definition) => definition.term),
      ['asObject', 'transmit'],
    );
  });
});
