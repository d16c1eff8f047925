// Issue 24, round 7: failure classes read in fresh set 5's losses.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readMarkdown } from './distill/read-markdown.ts';
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
