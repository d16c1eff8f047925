// Issue 24, round 6: a GNU manual's appended licence and index, and its table of contents, are not its facts.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { withoutAppendices } from './distill/appendices.ts';
import type { Block } from './distill/document.ts';
import { keyFactsOf } from './distill/key-facts.ts';
import { NUMBERED_TITLE } from './distill/numbered-title.ts';

test('an appended licence runs to the next heading of its level; its subsections go with it', () => {
  const blocks: Block[] = [
    { kind: 'heading', level: 2, text: '1 Usage' },
    { kind: 'paragraph', text: 'The default is 10 seconds.' },
    { kind: 'heading', level: 2, text: 'Appendix A GNU Free Documentation License' },
    { kind: 'paragraph', text: 'A Front-Cover Text may be at most 5 words.' },
    { kind: 'heading', level: 3, text: 'ADDENDUM: How to use this License for your documents' },
    { kind: 'paragraph', text: 'Put the following notice.' },
    { kind: 'heading', level: 2, text: 'Concept index' },
    { kind: 'item', text: 'timeout: 1' },
    { kind: 'heading', level: 2, text: '3 Reporting bugs' },
    { kind: 'paragraph', text: 'Mail them.' },
  ];
  assert.deepEqual(
    withoutAppendices(blocks).map((block) => block.text),
    ['1 Usage', 'The default is 10 seconds.', '3 Reporting bugs', 'Mail them.'],
  );
});

test('a numbered section title in a table of contents gives no version', () => {
  assert.ok(NUMBERED_TITLE.test('1.2.1 Time Resources'));
  assert.ok(!NUMBERED_TITLE.test('1.2.1 fixes a crash when the cache is full.'));
  const facts = keyFactsOf([{ kind: 'item', text: '1.2.1 Time Resources' }, { kind: 'paragraph', text: 'Requires version 2.3.4 or later.' }], [], '');
  assert.deepEqual(facts.filter((fact) => fact.kind === 'version').map((fact) => fact.fact), ['version 2.3.4']);
});
