// Issue 24, round 8: the answer's pieces beyond its skeleton are chosen by budgeted maximum coverage of information units.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { DistilledContent } from './distill/distill-document.ts';
import { fitBudget, type Ranked } from './distill/fit-budget.ts';
import type { Candidate } from './distill/rank-sentences.ts';
import { tokenCounter } from './distill/token-count.ts';
import { greedyCover, newWeight, type CoverCandidate } from './distill/cover.ts';
import { UNIT_WEIGHTS, unitsOf } from './distill/information-units.ts';

test('units weigh code names, options and numbers above plain words, and a rule clause carries a unit of its own', () => {
  const units = unitsOf('Use --max-old-space-size to raise the heap of process.memoryUsage() to 4096 MB.');
  assert.equal(units.get('--max-old-space-size'), UNIT_WEIGHTS.option);
  assert.equal(units.get('process.memoryusage()'), UNIT_WEIGHTS.code);
  assert.equal(units.get('4096'), UNIT_WEIGHTS.number);
  assert.equal(units.get('heap'), UNIT_WEIGHTS.word);
  assert.equal(units.has('the'), false);
  assert.ok([...unitsOf('A plugin without tests will not be accepted.').keys()].some((unit) => unit.startsWith('rule:')));
  assert.ok(![...unitsOf('A plugin has tests.').keys()].some((unit) => unit.startsWith('rule:')));
});

test('licence identifiers are code names; a disclaimer in capitals is plain words, not acronyms', () => {
  assert.equal(unitsOf('License: GPL-2+').get('gpl-2+'), UNIT_WEIGHTS.code);
  assert.equal(unitsOf('Licensed under BSD-2-Clause terms').get('bsd-2-clause'), UNIT_WEIGHTS.code);
  const shouting = unitsOf('IN NO EVENT SHALL THE AUTHORS BE LIABLE FOR ANY CLAIM, DAMAGES OR OTHER LIABILITY.');
  assert.equal(shouting.get('liable'), UNIT_WEIGHTS.word);
  assert.equal(shouting.get('claim'), UNIT_WEIGHTS.word);
});

test('plural and singular are one unit', () => {
  assert.ok(unitsOf('six tools').has('tool'));
  assert.ok(unitsOf('a tool').has('tool'));
});

const candidate = (item: string, price: number, units: Record<string, number>, prior = 1): CoverCandidate<string> => ({ item, price, units: new Map(Object.entries(units)), prior });

test('greedy coverage takes the most new weight per token, and nothing that only repeats what is covered', () => {
  const covered = new Set<string>(['fastify']);
  const { picked, spent } = greedyCover(
    [
      candidate('long sentence', 30, { fastify: 1, plugin: 1, test: 1, accepted: 1, rule: 2 }),
      candidate('keyword', 3, { 'node:test': 2.5 }),
      candidate('repeat', 2, { fastify: 1 }),
      candidate('too dear', 50, { a: 1, b: 1, c: 1, d: 1, e: 1, f: 1, g: 1, h: 1 }),
    ],
    covered,
    40,
    () => true,
  );
  assert.deepEqual(picked, ['keyword', 'long sentence']);
  assert.equal(spent, 33);
  assert.ok(covered.has('node:test') && covered.has('plugin'));
});

test('a piece whose units the answer already holds adds nothing; a prior lifts a piece ranked first in its list', () => {
  assert.equal(newWeight(new Map([['x', 2], ['y', 1]]), new Set(['x'])), 1);
  const { picked } = greedyCover([candidate('second', 10, { a: 1 }), candidate('first', 10, { b: 1 }, 2)], new Set(), 10, () => true);
  assert.deepEqual(picked, ['first']);
});

describe('the answer filled by coverage', async () => {
  const countTokens = await tokenCounter();
  const base: DistilledContent = { title: 'thread-stream', format: 'markdown', kind: 'article', summary: '', keyPoints: [], outline: [], releases: [], facts: [], entities: [], keywords: [], numbers: [], dates: [] };
  const sentence = (text: string, index: number): Candidate => ({ text, index, words: new Set(), firstInSection: false, score: 0 });
  const ranked: Ranked = {
    openingText: 'A streaming way to send data to a Node.js Worker Thread.',
    sentences: [sentence('The stream is automatically closed if the stream is garbage collected, and flushSync() writes what is buffered.', 5)],
    opening: [],
    outline: [],
    releases: [],
    facts: [],
    entities: [],
    keywords: ['flushSync()', 'Worker', 'workerData'],
    numbers: ['4096 MB'],
    dates: [],
  };

  test('a keyword the answer already says (in its opening or a key point) is not listed again; a new one is', () => {
    const answer = fitBudget(base, 'article', ranked, 120, countTokens);
    assert.deepEqual(answer.keyPoints, [ranked.sentences[0]!.text]);
    assert.ok(answer.keywords.includes('workerData'), JSON.stringify(answer));
    assert.ok(!answer.keywords.includes('flushSync()') && !answer.keywords.includes('Worker'), JSON.stringify(answer));
    assert.ok(countTokens(JSON.stringify(answer)) <= 120);
  });

  test('a number alone competes at a lower weight than a name of the same size', () => {
    const answer = fitBudget(base, 'article', { ...ranked, sentences: [] }, countTokens(JSON.stringify({ ...base, summary: ranked.openingText, keywords: ['flushSync()', 'workerData'] })) + 2, countTokens);
    assert.deepEqual(answer.numbers, []);
    assert.ok(answer.keywords.includes('workerData'), JSON.stringify(answer));
  });
});

test("a section's first sentence stating a rule is preferred to another sentence saying as much", async () => {
  const countTokens = await tokenCounter();
  const base: DistilledContent = { title: 'Plugins', format: 'markdown', kind: 'article', summary: '', keyPoints: [], outline: [], releases: [], facts: [], entities: [], keywords: [], numbers: [], dates: [] };
  const plain: Candidate = { text: 'Plugins published by the core team are listed on the ecosystem page every week.', index: 3, words: new Set(), firstInSection: false, score: 0 };
  const rule: Candidate = { text: 'A plugin must come with tests to be accepted to the ecosystem list.', index: 7, words: new Set(), firstInSection: true, score: 0 };
  const ranked: Ranked = { openingText: 'How to write a plugin.', sentences: [plain, rule], opening: [], outline: [], releases: [], facts: [], entities: [], keywords: [], numbers: [], dates: [] };
  const room = countTokens(JSON.stringify({ ...base, summary: ranked.openingText, keyPoints: [rule.text] })) + 12;
  assert.deepEqual(fitBudget(base, 'article', ranked, room, countTokens).keyPoints, [rule.text]);
});
