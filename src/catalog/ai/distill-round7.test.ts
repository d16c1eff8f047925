// Issue 24, round 7: failure classes read in fresh set 5's losses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readHtml } from './distill/read-html.ts';
import { readMarkdown } from './distill/read-markdown.ts';
import { definitionsOf } from './distill/definitions.ts';
import { keywordOf } from './distill/key-facts.ts';

test('a table of contents in words is not read as the opening; an index of functions is kept', () => {
  const document = readMarkdown('# Help\n\n* [Log rotation](#rotate)\n* [Testing](#testing)\n- [`.body`](#body)\n\n## Log rotation\n\nUse logrotate.\n');
  const items = document.blocks.filter((block) => block.kind === 'item').map((block) => block.text);
  assert.deepEqual(items, ['.body']);
});

test("an option's bracketed optional part stays in its keyword", () => {
  assert.equal(keywordOf('-histo[:live] pid'), '-histo[:live]');
  assert.equal(keywordOf('--color[=WHEN]'), '--color[=WHEN]');
  assert.equal(keywordOf('-v, --verbose'), '--verbose');
});

test('keys of an object in a code example are not served as defaults when only an earlier sentence says "default"', () => {
  const blocks = [
    { kind: 'paragraph' as const, text: 'Data goes in a message key instead of the default msg key. Use a lookup like this one:' },
    { kind: 'code' as const, text: "const lookup = {\n  trace: 'DEBUG',\n  info: 'INFO',\n}" },
  ];
  assert.deepEqual(definitionsOf(blocks).map((definition) => definition.term), []);
  const introduced = [{ kind: 'paragraph' as const, text: 'The default options are:' }, blocks[1]!];
  assert.deepEqual(definitionsOf(introduced).map((definition) => definition.term), ['trace', 'info']);
});

test('a table row headed by a code in capitals (a warning code) defines it', () => {
  const blocks = [{ kind: 'row' as const, text: 'FSTWRN003 | The plugin mixes async and callback styles, which may lead to unhandled rejections. | Do not mix them.' }];
  assert.deepEqual(definitionsOf(blocks).map((definition) => definition.term), ['FSTWRN003']);
  assert.deepEqual(definitionsOf([{ kind: 'row' as const, text: 'Code | Description of the code | How to solve it' }]), []);
});

test("a line that is mostly a link in running text (a Node.js page's stability index) is kept by the HTML reader", () => {
  const prose = '<p>This module lets a program do a number of useful things with files on the disk, in a portable way across platforms.</p>'.repeat(6);
  const page = `<html><head><title>Files</title></head><body><nav><ul><li><a href="/a">A</a></li><li><a href="/b">B</a></li></ul></nav><main><h1>Files</h1><div class="api_stability"><a href="documentation.html#stability-index">Stability: 1</a>.1 - Active development</div>${prose}</main></body></html>`;
  const text = readHtml(page).blocks.map((block) => block.text);
  assert.ok(text.includes('Stability: 1.1 - Active development'), text.join('\n'));
});
