// The answer leads with the document's opening (issue 24, round 4): verbatim, cleaned, plus what the
// extractor finds beyond it; a manual's options in the page's order; its closing sections left out.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { distill } from './distill/distill-document.ts';
import { definitionsOf } from './distill/definitions.ts';
import { keyFactsOf } from './distill/key-facts.ts';
import { openingOf, openingShare } from './distill/opening-text.ts';
import { readMarkdown } from './distill/read-markdown.ts';
import { readText } from './distill/read-text.ts';
import { tokenCounter } from './distill/token-count.ts';

describe('the opening', () => {
  test('a short document spends more of its budget on its opening than a long one; a changelog little', () => {
    assert.ok(openingShare('article', 500) > openingShare('article', 3000));
    assert.ok(openingShare('article', 3000) > openingShare('article', 20_000));
    assert.ok(openingShare('manual', 20_000) >= 0.2);
    assert.ok(openingShare('changelog', 500) < openingShare('article', 20_000));
  });

  test('verbatim after the title: no headings, no table of contents, a code block by its first lines, cut at a word within its tokens', async () => {
    const count = await tokenCounter();
    const document = readMarkdown(
      [
        '# fastlist', '', 'fastlist keeps a sorted list in memory.', '', '## Table of contents', '', '- [Install](#install)', '- [API](#api)', '',
        '## Install', '', '```sh', 'npm install fastlist', 'npm test', 'npm run bench', 'npm run lint', '```', '',
        '## API', '', ...Array.from({ length: 30 }, (_, i) => `Method number ${i} inserts a value into the list and returns the new length of the list.\n`),
      ].join('\n'),
    );
    const opening = openingOf(document, 'fastlist', 80, count);
    assert.match(opening.text, /^fastlist keeps a sorted list in memory\.\nnpm install fastlist\nnpm test\nnpm run bench …\nMethod number 0 /);
    assert.doesNotMatch(opening.text, /Table of contents|Install\n|\[|#/);
    assert.ok(count(JSON.stringify(opening.text)) <= 80);
    assert.match(opening.text, / …$/);
  });

  test("a man page's opening leaves out its boilerplate sentence, keeps the rest of that paragraph; the authors' sentence is not quoted twice", async () => {
    const options = Array.from({ length: 12 }, (_, i) => `       --option-${i}\n              change how the output of the tool is formatted, in way number ${i}`).join('\n\n');
    const page = `NAME\n       tool - format things\n\nSYNOPSIS\n       tool [OPTION]... [FILE]...\n\nDESCRIPTION\n       Tool formats things for people who read them in a terminal.\n\n       Mandatory arguments to long options are mandatory for short options too. Ordering options come first.\n\n${options}\n\nAUTHOR\n       Written by Jane Example and John Sample.\n`;
    const answer = await distill(page, undefined, { maxTokens: 800 });
    assert.doesNotMatch(answer.summary, /Mandatory arguments/);
    assert.match(answer.summary, /Ordering options come first\./);
    const quotes = JSON.stringify(answer).match(/Written by Jane Example/g) ?? [];
    assert.equal(quotes.length, 1, JSON.stringify(answer));
  });

  test('a document shorter than its budget is served whole, once: no extracts of itself beside it', async () => {
    const content = 'ISC License\n\nCopyright (c) Jane Example\n\nPermission to use, copy, modify, and/or distribute this software for any purpose with or without fee is hereby granted, provided that the above copyright notice and this permission notice appear in all copies.\n\nTHE SOFTWARE IS PROVIDED "AS IS" AND THE AUTHOR DISCLAIMS ALL WARRANTIES.\n';
    const answer = await distill(content, undefined, {});
    assert.match(answer.summary, /Permission to use, copy, modify/);
    assert.match(answer.summary, /DISCLAIMS ALL WARRANTIES/);
    assert.deepEqual([answer.keyPoints, answer.facts, answer.keywords, answer.outline], [[], [], [], []]);
    assert.ok(answer.tokens.output < answer.tokens.text + 60, JSON.stringify(answer.tokens));
  });

  test('what the opening says is not served again as a fact, keyword or number', async () => {
    const content = [
      '# tinycache', '', 'tinycache is an LRU cache for Node.js with a default capacity of 500 entries.', '', '```sh', 'npm install tinycache', '```', '',
      '## Options', '', '- `capacity`: how many entries are kept. The default is 500.', '- `ttl`: how long an entry lives, in milliseconds. The default is 0 (forever).', '',
      ...Array.from({ length: 25 }, (_, i) => `Benchmark ${i} shows that get() and set() take about ${i + 2} microseconds on a laptop, with the cache full.\n`),
      '', '## Limits', '', 'The cache never holds more than 2^32 entries; a larger capacity throws a RangeError.',
    ].join('\n');
    const answer = await distill(content, undefined, {});
    assert.match(answer.summary, /^tinycache is an LRU cache for Node\.js with a default capacity of 500 entries\.\nnpm install tinycache\n/);
    const listed = JSON.stringify([answer.facts, answer.keywords, answer.numbers, answer.entities]);
    assert.doesNotMatch(listed, /npm install tinycache|"capacity"|"500"/);
  });
});

describe('man pages', () => {
  const page = [
    'NAME', '       tally - count lines of text files', '', 'SYNOPSIS', '       tally [OPTION]... [FILE]...', '', 'DESCRIPTION', '       Count the lines of each FILE.', '',
    '       -a, --all', '              count every line, blank ones too', '',
    '       -n, --numeric', '              print counts as plain numbers (see --month)', '',
    '       -m, --month', '              group lines by month; like --numeric but by month, unlike --numeric it needs dates, and --numeric is ignored with --month', '',
    '       -z, --zero', '              end lines with NUL, not newline (with --month too)', '',
    'BUGS', '       Please report every bug you find to the tally bug tracker as soon as you can.', '',
    'COPYRIGHT', '       This is free software: you are free to change and redistribute it under the licence.', '',
  ].join('\n');

  test('options are ranked in the page\'s order, not by how often other options mention them', () => {
    const document = readText(page);
    const options = (ranking: 'mentions' | 'order', prose: string) =>
      keyFactsOf(document.blocks, definitionsOf(document.blocks), prose, { option: 1 }, undefined, ranking).map((fact) => fact.fact);
    // By mentions, --numeric (named by three other options) comes first; a reader of the page meets --all first.
    assert.equal(options('mentions', page)[0], '-n, --numeric');
    assert.deepEqual(options('order', 'Count the lines of each FILE.'), ['-a, --all', '-n, --numeric', '-m, --month', '-z, --zero']);
  });

  test('the bugs and copyright sections give no key points', async () => {
    const answer = await distill(page, undefined, { maxTokens: 2000 });
    assert.equal(answer.kind, 'manual');
    assert.doesNotMatch(JSON.stringify(answer.keyPoints), /report every bug|free software/);
  });
});

describe('a long lead sentence', () => {
  test('clipped with "…" as a sentence, it is not quoted again before the opening that holds it', async () => {
    const long = `widget-runner reads tasks from ${Array.from({ length: 50 }, (_, i) => `queue${i}`).join(' and ')} and runs them in order.`;
    const content = ['# widget-runner', '', long, '', 'It never runs two tasks at once.', '', ...Array.from({ length: 20 }, (_, i) => `Task ${i} is logged with its start time, its end time and the exit status it returned.\n`)].join('\n');
    const answer = await distill(content, undefined, {});
    assert.equal(answer.summary.split('widget-runner reads tasks from').length, 2, answer.summary);
  });
});
