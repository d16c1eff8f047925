// The lead sentence, values and terms said once, the budget following the document (issue 24,
// round 2); one test per rule.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { distill, openingOf } from './distill/distill-document.ts';
import { readHtml } from './distill/read-html.ts';
import { readMarkdown } from './distill/read-markdown.ts';
import { leadOf, sentenceCandidates } from './distill/rank-sentences.ts';
import { definitionsOf } from './distill/definitions.ts';
import { outputBudget } from './distill/budget.ts';
import { oncePerName, rankKeywords } from './distill/keywords.ts';
import { keyFactsOf } from './distill/key-facts.ts';
import type { Block } from './distill/document.ts';

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

describe('values in code blocks keep their key', () => {
  test('a setting explained by its comment is a definition with its value; a "//" inside a string is no comment', () => {
    const document = readMarkdown(['## Create', '', '```js', 'const pool = new Pool({', "  host: 'http://db.local',", '  idleTimeoutMillis: 1000, // close idle clients after 1 second', '  port: 5432,', '})', '```'].join('\n'));
    const definitions = definitionsOf(document.blocks);
    assert.deepEqual(
      definitions.map((definition) => [definition.term, definition.meaning]),
      [['idleTimeoutMillis', 'close idle clients after 1 second (idleTimeoutMillis: 1000)']],
    );
  });

  test('under a sentence naming defaults, every setting is a default, joined to the term\'s own explanation when there is one', () => {
    const document = readMarkdown(['* `methods`: Configures the allowed methods header.', '', 'The default configuration is the equivalent of:', '', '```json', '{', '  "origin": "*",', '  "methods": "GET,HEAD,PUT",', '  "optionsSuccessStatus": 204', '}', '```'].join('\n'));
    const meanings = Object.fromEntries(definitionsOf(document.blocks).map((definition) => [definition.term, definition.meaning]));
    assert.equal(meanings.methods, 'Configures the allowed methods header. (default methods: "GET,HEAD,PUT")');
    assert.equal(meanings.optionsSuccessStatus, 'default optionsSuccessStatus: 204');
    assert.equal(meanings.origin, 'default origin: "*"');
  });
});

describe('the default budget follows the document', () => {
  test('a short text gets a larger share (24% at 1,500 tokens and below), a long one the plain 20% (6,000 and above)', () => {
    assert.equal(outputBudget(1500), 360);
    assert.equal(outputBudget(1000), 300);
    assert.equal(outputBudget(6000), 1200);
    assert.equal(outputBudget(10_000), 2000);
    const between = outputBudget(3000);
    assert.ok(between > 0.2 * 3000 && between < 0.24 * 3000, String(between));
  });

  test('a page sent with much markup may take 10% of what was sent, at most half its text', () => {
    assert.equal(outputBudget(8000, {}, 35_000), 3500);
    assert.equal(outputBudget(2000, {}, 40_000), 1000);
    assert.equal(outputBudget(8000, {}, 9000), 1600);
  });
});

describe('names said once', () => {
  test("a man page's AUTHOR section names who wrote the program (round 8: as an entity when the fact would only repeat the name)", async () => {
    const options = Array.from({ length: 30 }, (_, i) => `       --option-${i}\n              set the behaviour number ${i} of the compressor when it reads its input files\n`).join('\n');
    const page = `SQUEEZE(1)                 General Commands Manual                SQUEEZE(1)\n\nNAME\n       squeeze - a block-sorting file compressor\n\nDESCRIPTION\n       squeeze compresses files using a block-sorting algorithm and Huffman coding.\n\nOPTIONS\n${options}\nAUTHOR\n       Jane Example, jane@example.org.\n\n       https://example.org/squeeze/\n`;
    const answer = await distill(page, undefined, {});
    assert.ok(answer.entities.includes('Jane Example') || answer.facts.some((fact) => fact.fact === 'author' && fact.sentence.startsWith('Jane Example')), answerText(answer));
    const brief = await distill(page, undefined, { detail: 'brief' });
    assert.match(answerText(brief), /Jane Example/);
  });
});

describe('values inside code blocks', () => {
  test('a method only the examples call is a keyword ("pool.end()"); console.log and other built-ins are not', () => {
    const text = 'The pool keeps idle clients open and hands them out on request for each query.';
    const code = "const client = await pool.connect()\nconsole.log(client)\nclient.release()\nawait pool.end()\nJSON.stringify(x)";
    const keywords = rankKeywords(text, text, [], new Set(), code).map((keyword) => keyword.text);
    for (const call of ['pool.connect()', 'client.release()', 'pool.end()']) assert.ok(keywords.includes(call), `${call} in ${keywords.join(', ')}`);
    assert.ok(!keywords.some((keyword) => /^(?:console|JSON)\./.test(keyword)), keywords.join(', '));
  });
});

describe('keywords', () => {
  test('identifiers rank before plain words, however often a plain word is repeated', () => {
    const text = `${'Memory errors in the program corrupt memory. '.repeat(12)}Run it with --leak-check to see each leak, or call toClientConfig once.`;
    const keywords = rankKeywords(text, text, [], new Set()).map((keyword) => keyword.text);
    assert.deepEqual(keywords.slice(0, 2).sort(), ['--leak-check', 'toClientConfig']);
    assert.ok(keywords.includes('memory'), keywords.join(', '));
  });

  test('a hexadecimal id from an example ("dc9010dd") is no keyword', () => {
    const text = 'The session dc9010dd was saved; call saveSession to store another, and loadSession to read it back. The session dc9010dd is listed.';
    const keywords = rankKeywords(text, text, [], new Set()).map((keyword) => keyword.text);
    assert.ok(!keywords.includes('dc9010dd'), keywords.join(', '));
    assert.ok(keywords.includes('saveSession'), keywords.join(', '));
  });

  test('a name is listed once, with or without its "()"', () => {
    assert.deepEqual(oncePerName(['setBreakpoint()', 'sb()', 'setBreakpoint', 'takeHeapSnapshot', 'takeHeapSnapshot()']), ['setBreakpoint()', 'sb()', 'takeHeapSnapshot']);
  });
});

describe('terms defined once', () => {
  test('a typed parameter of an API page is a definition, with its default', () => {
    const document = readHtml('<html><body><h1>querystring</h1><ul><li><code>options</code> <a class="type">&lt;Object></a><ul><li><code>maxKeys</code> <a class="type">&lt;number></a> Specifies the maximum number of keys to parse. Specify 0 to remove the limit. Default: <code>1000</code>.</li></ul></li></ul></body></html>');
    const maxKeys = definitionsOf(document.blocks).find((definition) => definition.term === 'maxKeys');
    assert.equal(maxKeys?.meaning, 'Specifies the maximum number of keys to parse. Default: 1000.');
  });

  test('a term a licence defines in quotes is a definition, once, with its sentence', () => {
    const document = readMarkdown('Such a work, in isolation, is called a "work that uses the Library". Later a "work that uses the Library" is mentioned again.\n\n"Contributor" means each entity that creates or contributes to the creation of Modifications.\n');
    assert.deepEqual(
      definitionsOf(document.blocks).map((definition) => definition.term),
      ['work that uses the Library', 'Contributor'],
    );
  });
});

describe('limits', () => {
  test('what a program returns outranks a default; a default its option already states is not repeated as a limit', () => {
    const blocks: Block[] = [
      { kind: 'heading', level: 1, text: 'DESCRIPTION' },
      { kind: 'item', text: '-C NUM, --context=NUM — output NUM (default 3) lines of copied context' },
      { kind: 'paragraph', text: 'The width is at most 130 columns by default.' },
      { kind: 'paragraph', text: 'Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.' },
    ];
    const facts = keyFactsOf(blocks, definitionsOf(blocks), blocks.map((block) => block.text).join('\n'), { limit: 1, option: 1 });
    const limits = facts.filter((fact) => fact.kind === 'limit').map((fact) => fact.sentence);
    assert.deepEqual(limits, ['Exit status is 0 if inputs are the same, 1 if different, 2 if trouble.', 'The width is at most 130 columns by default.']);
  });
});

describe('the summary reads on from the lead', () => {
  test('with paragraphs, not with the option list that follows', () => {
    const blocks: Block[] = [
      { kind: 'heading', level: 1, text: 'NAME' },
      { kind: 'paragraph', text: 'cmpx - compare two files byte by byte' },
      { kind: 'heading', level: 1, text: 'DESCRIPTION' },
      { kind: 'paragraph', text: 'Compare two files byte by byte and report the first place where they differ.' },
      { kind: 'item', text: 'These format options provide fine control over the output of the program' },
      { kind: 'heading', level: 1, text: 'NOTES' },
      { kind: 'paragraph', text: 'The program reads both files once and stops at the first difference it finds.' },
    ];
    const candidates = sentenceCandidates(blocks);
    const opening = openingOf(candidates, candidates[0]).map((candidate) => candidate.text);
    assert.deepEqual(opening, ['Compare two files byte by byte and report the first place where they differ.', 'The program reads both files once and stops at the first difference it finds.']);
  });
});

describe('the lead (round 8)', () => {
  test('a warranty disclaimer in capitals is no lead: the next paragraph is', () => {
    const blocks: Block[] = [
      { kind: 'paragraph', text: 'THIS SOFTWARE IS PROVIDED BY THE AUTHORS "AS IS" AND ANY EXPRESS OR IMPLIED WARRANTIES ARE DISCLAIMED.' },
      { kind: 'paragraph', text: 'CDebConf was initially written by Randolph Chung.' },
    ];
    assert.equal(leadOf(blocks, 'Debian copyright')?.text, 'CDebConf was initially written by Randolph Chung.');
  });
});
