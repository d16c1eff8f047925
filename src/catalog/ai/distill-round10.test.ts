// Issue 24, round 10: failure classes read in fresh set 8's losses and in the tuned sets' HTML pages and READMEs.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readTroff, troffInline } from './distill/read-troff.ts';
import { clipHolders } from './distill/licence-notices.ts';
import { keywordOf } from './distill/key-facts.ts';
import { isNameList, readText } from './distill/read-text.ts';
import { inlineText, readMarkdown, withoutComments } from './distill/read-markdown.ts';
import { sentenceCandidates } from './distill/rank-sentences.ts';

test('troff motions, colours and half-line moves are layout, not text', () => {
  assert.equal(troffInline("\\h'-04' 1.\\h'+01'\\c"), ' 1.');
  assert.equal(troffInline('the \\m[blue]\\fBContainer Interface\\fR\\m[]\\&\\s-2\\u[1]\\d\\s+2\\&.'), 'the Container Interface[1].');
  assert.equal(troffInline("a\\v'-1'b\\w'abc'c"), 'abc');
});

test("DocBook's list marks written for nroff and for troff (.ie n / .el) are read once, as the step's first words", () => {
  const page = [
    '.TH TOOL 1', '.SH DESCRIPTION', 'The ID is acquired in the following fashion:', '.sp', '.RS 4', '.ie n \\{\\', "\\h'-04' 1.\\h'+01'\\c", '.\\}', '.el \\{\\', '.sp -1', '.IP "  1." 4.2', '.\\}',
    'If a valid ID is already configured, it is copied.', '.RE', '.sp', '.RS 4', '.ie n \\{\\', "\\h'-04' 2.\\h'+01'\\c", '.\\}', '.el \\{\\', '.sp -1', '.IP "  2." 4.2', '.\\}', 'Otherwise, a new ID is randomly generated.', '.RE',
  ].join('\n');
  const texts = readTroff(page).blocks.map((block) => block.text);
  assert.deepEqual(texts.slice(1), ['The ID is acquired in the following fashion:', '1. If a valid ID is already configured, it is copied.', '2. Otherwise, a new ID is randomly generated.']);
});

test("a copyright stanza's leading years do not count against its holders' characters: the name is not cut for them", () => {
  assert.equal(clipHolders('1992, 1995-2020, Free Software Foundation, Inc', 40), '1992, 1995-2020, Free Software Foundation, Inc');
  assert.equal(clipHolders('Free Software Foundation, Inc and many other authors of this package', 40), 'Free Software Foundation, Inc and many …');
});

test('an optional argument in brackets written in angle brackets is part of the option: --dump[=<desc>]', () => {
  assert.equal(keywordOf('--dump[=<desc>] (default: no description)'), '--dump[=<desc>]');
  assert.equal(keywordOf('--color[=WHEN]'), '--color[=WHEN]');
});

test('a credits list, one name a line, is read as a list of names, not one run of capitalised words', () => {
  const blocks = readText('Prior to 2018 many others have also contributed.\n\nDimitry Andric\nSimon Barner\nAndrei V. Shetuhin\nYuri\n').blocks;
  assert.deepEqual(blocks[1], { kind: 'paragraph', text: 'Dimitry Andric, Simon Barner, Andrei V. Shetuhin, Yuri.' });
  assert.ok(isNameList(['Dimitry Andric', 'Simon Barner', 'Yuri']));
  assert.ok(!isNameList(['In order to run the tests you will need', 'gdb', 'gsed']));
  assert.ok(!isNameList(['Dimitry Andric', 'Simon Barner']));
});

test("a Markdown file's HTML comments are not read as text; one inside a fenced code block is the code's", () => {
  const blocks = readMarkdown('<!--\n  -- This file is auto-generated from README_js.md.\n  -->\n\n# uuid\n\n<!-- prettier-ignore -->\nFor the creation of UUIDs.\n\n```html\n<!-- a comment in code -->\n```\n').blocks;
  assert.deepEqual(blocks.map((block) => block.text), ['uuid', 'For the creation of UUIDs.', '<!-- a comment in code -->']);
});

test("Markdown's character references are read as their characters; an unknown one stays as written", () => {
  assert.equal(inlineText('follows the left &Rarr; right order &#8212; &#x2713; &check; &amp;lt; &bogus;'), 'follows the left ⇒ right order — ✓ ✓ &lt; &bogus;');
});

test('a comment inside a sentence is left to the inline reader: it may be quoted in a code span', () => {
  assert.equal(withoutComments('Write `<!-- prettier-ignore -->` before a table.\n<!-- hidden -->\nText.'), 'Write `<!-- prettier-ignore -->` before a table.\n\nText.');
});

test("a README's section on contributing gives no key-point sentences; a document about contributing keeps its own", () => {
  const readme = readMarkdown('# calendar\n\nConverts dates between calendars.\n\n## Usage\n\nCall convert() with a date.\n\n## Contribution and License Agreement\n\nIf you contribute code to this project, you are implicitly allowing its distribution.\n\n## References\n\nThe epoch of the Chinese calendar starts in 2636 BCE.\n').blocks;
  const texts = sentenceCandidates(readme).map((candidate) => candidate.text);
  assert.ok(!texts.some((text) => text.includes('contribute code')));
  assert.ok(texts.includes('The epoch of the Chinese calendar starts in 2636 BCE.'));
  const guide = readMarkdown('# Contributing\n\nOpen an issue before a pull request.\n').blocks;
  assert.deepEqual(sentenceCandidates(guide).map((candidate) => candidate.text), ['Open an issue before a pull request.']);
});
