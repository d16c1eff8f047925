// Issue 24, round 2: general rules for the losses still seen on the tuning, test and hold-out sets,
// one test per rule.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { distill } from './distill/distill-document.ts';
import { readMarkdown } from './distill/read-markdown.ts';
import { leadOf } from './distill/rank-sentences.ts';

const answerText = ({ tokens: _tokens, ...rest }: Awaited<ReturnType<typeof distill>>) => JSON.stringify(rest);

describe('the lead', () => {
  test('a one-line description under the title is the lead, even without a full stop', () => {
    const document = readMarkdown(['# pool', '', '[![Build](https://ci/badge.svg)](https://ci)', '', 'A connection pool for the database client', '', '## Install', '', 'Run the installer and then read the usage section below for the details.'].join('\n'));
    assert.equal(leadOf(document.blocks, 'pool')?.text, 'A connection pool for the database client');
  });

  test('a label or a list opener is not: "Features:", "Build status", a line in a later section', () => {
    assert.equal(leadOf(readMarkdown('# tool\n\nMain features of it:\n\n## Usage\n\nShort line of words here\n').blocks, 'tool'), undefined);
    assert.equal(leadOf(readMarkdown('# tool\n\nBuild status\n').blocks, 'tool'), undefined);
    assert.equal(leadOf(readMarkdown('# tool\n\n## Usage\n\nA line in the usage section\n').blocks, 'tool'), undefined);
  });
});
