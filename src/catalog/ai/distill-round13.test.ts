// Issue 24, round 13: failure classes read in fresh set 11's losses and in the tuned sets' man pages.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTroff } from './distill/read-troff.ts';
import { readMarkdown } from './distill/read-markdown.ts';
import { definitionsOf } from './distill/definitions.ts';
import { keyFactsOf } from './distill/key-facts.ts';
import { manualContent } from './distill/manual-sections.ts';
import { ownInstall } from './distill/own-install.ts';

test("a page's own indenting macros (rst2man's and Sphinx's .INDENT / .UNINDENT) set an option's meaning under its term", () => {
  const page = [
    '.TH "GDK-PIXBUF-CSOURCE" "1" "" ""',
    '.de1 INDENT',
    '.\\" .rstReportMargin pre:',
    '. RS \\\\$1',
    '. nr rst2man-indent-level +1',
    '..',
    '.de UNINDENT',
    '. RE',
    '.nr rst2man-indent-level -1',
    '..',
    '.SH OPTIONS',
    '.sp',
    '\\fB\\-\\-static\\fP',
    '.INDENT 0.0',
    '.INDENT 3.5',
    'Generate static symbols (default).',
    '.UNINDENT',
    '.UNINDENT',
    '.sp',
    '\\fB\\-\\-name=identifier\\fP',
    '.INDENT 0.0',
    '.INDENT 3.5',
    'Specifies the identifier name (prefix) for the generated variables.',
    '.UNINDENT',
    '.UNINDENT',
  ].join('\n');
  const { blocks } = readTroff(page);
  assert.deepEqual(
    blocks.filter((block) => block.kind === 'item').map((block) => block.text),
    ['--static — Generate static symbols (default).', '--name=identifier — Specifies the identifier name (prefix) for the generated variables.'],
  );
  assert.deepEqual(definitionsOf(blocks).map((definition) => definition.term), ['--static', '--name=identifier']);
});

test('a macro that does more than indent is not read as an indent', () => {
  const page = ['.TH "X" "1"', '.de XX', '. RS', '. RE', '..', '.SH OPTIONS', '.sp', 'term', '.XX', 'meaning'].join('\n');
  assert.deepEqual(readTroff(page).blocks.filter((block) => block.kind === 'item'), []);
});

test('--help and --version are never served as facts; a lone -v meaning verbose still is', () => {
  const page = ['.TH "X" "1"', '.SH OPTIONS', '.TP', '\\-h, \\-\\-help', 'Prints a brief help and exit.', '.TP', '\\-v', 'Verbose mode: print each file as it is read.', '.TP', '\\-\\-version', 'Print the version.'].join('\n');
  const { blocks } = readTroff(page);
  const facts = keyFactsOf(blocks, definitionsOf(blocks), '', { command: 1, option: 3, definition: 1, limit: 1, version: 1, date: 1 }, undefined, 'order');
  assert.deepEqual(facts.filter((fact) => fact.kind === 'option').map((fact) => fact.fact), ['-v']);
});

test("a man page's BUGS section's known limitations are content; its lines on reporting bugs, copyright and see also are not", () => {
  const blocks = readTroff(
    [
      '.TH "X" "1"',
      '.SH DESCRIPTION',
      'Runs things.',
      '.SH BUGS',
      'Some platforms don\'t currently support timeouts beyond the year 2038.',
      '.PP',
      'Please send bug reports to https://example.org/issues.',
      '.SH "REPORTING BUGS"',
      'Report any translation bugs to the team.',
      '.SH COPYRIGHT',
      'Copyright 2022 Free Software Foundation, Inc.',
    ].join('\n'),
  ).blocks;
  assert.deepEqual(
    manualContent(blocks).map((block) => block.text),
    ['DESCRIPTION', 'Runs things.', "Some platforms don't currently support timeouts beyond the year 2038."],
  );
});

test('an indented line inside an HTML block is HTML, not a code block: a badge image with a data URL is no text', () => {
  const markdown = [
    '# OpenTelemetry API for JavaScript',
    '',
    '<p align="center">',
    '<a href="https://example.org/releases">',
    '    <img alt="NPM Release" src="https://img.shields.io/npm/v/x?logo=data%3Aimage%2Fpng%3Bbase64%2CiVBORw0KGgo">',
    '  </a>',
    '</p>',
    '',
    'This package provides everything needed to interact with the API.',
    '',
    '    indented code after a blank line is code',
  ].join('\n');
  const { blocks } = readMarkdown(markdown);
  assert.deepEqual(
    blocks.map((block) => [block.kind, block.text]),
    [
      ['heading', 'OpenTelemetry API for JavaScript'],
      ['paragraph', 'This package provides everything needed to interact with the API.'],
      ['code', 'indented code after a blank line is code'],
    ],
  );
});

test('a README opening with its named logo and no top heading is titled by the logo, not by its first section', () => {
  const markdown = ['![decimal.js](https://example.org/decimaljs.png)', '', 'An arbitrary-precision Decimal type for JavaScript.', '', '## Features', '', '- Integers and floats'].join('\n');
  assert.equal(readMarkdown(markdown).title, 'decimal.js');
  // A heading of its own still wins, and a badge is no name.
  assert.equal(readMarkdown(['![decimal.js](https://example.org/logo.png)', '', '# Decimal', '', 'Text.'].join('\n')).title, 'Decimal');
  assert.equal(readMarkdown(['[![Build Status](https://ci.example.org/badge.svg)](https://ci.example.org)', '', '## Usage', '', 'Text.'].join('\n')).title, 'Usage');
});

test("a README's own install command is found by its title's words, not a tool's install", () => {
  const facts = [
    { fact: 'npm install uglify-js -g', kind: 'command' as const, sentence: 'Minify' },
    { fact: 'npm install decimal.js', kind: 'command' as const, sentence: 'Load' },
    { fact: 'npm install @opentelemetry/api @opentelemetry/sdk-trace', kind: 'command' as const, sentence: 'Install' },
  ];
  assert.equal(ownInstall(facts, 'decimal.js')?.fact, 'npm install decimal.js');
  assert.equal(ownInstall(facts, 'OpenTelemetry API for JavaScript')?.fact, 'npm install @opentelemetry/api @opentelemetry/sdk-trace');
  assert.equal(ownInstall(facts, 'Something else'), undefined);
});

test('a shell line naming its program by a path, introduced by a list item ending in a colon, is a command', () => {
  const blocks = [
    { kind: 'item' as const, text: 'You can test it with a command like:' },
    { kind: 'code' as const, text: '\n  inst/bin/valgrind --tool=foobar date' },
    { kind: 'paragraph' as const, text: 'Then build it:' },
    { kind: 'code' as const, text: './configure --prefix=/usr' },
  ];
  const commands = keyFactsOf(blocks, [], '').filter((fact) => fact.kind === 'command');
  assert.deepEqual(commands.map((fact) => [fact.fact, fact.sentence]), [
    ['inst/bin/valgrind --tool=foobar date', 'You can test it with a command like:'],
    ['./configure --prefix=/usr', 'Then build it:'],
  ]);
});
