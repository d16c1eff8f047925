// Slow suite (node scripts/run-tests.mjs --slow). distill_document on 24 real long documents (test/fixtures/distill-corpus): the median saving on
// long documents and the facts listed for each document in facts.json, chosen by reading them.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { corpusFacts, corpusFiles, LONG_DOCUMENT_TOKENS, measureCorpus, median, savingsReport, type DocumentMeasure } from '../../../scripts/measure-distill.ts';

let measures: DocumentMeasure[];
before(async () => {
  measures = await measureCorpus();
});

test('the corpus has at least 20 documents of several formats, each with facts to check', () => {
  assert.ok(corpusFiles().length >= 20);
  assert.deepEqual(new Set(measures.map((m) => m.format)), new Set(['html', 'markdown', 'text']));
  const facts = corpusFacts();
  for (const file of corpusFiles()) assert.ok((facts[file]?.length ?? 0) >= 3, `${file} has facts to check`);
});

test('the median saving on long documents is at least 90%, against the input and against its bare text', () => {
  const long = measures.filter((m) => m.input >= LONG_DOCUMENT_TOKENS);
  assert.ok(long.length >= 20);
  assert.ok(median(long.map((m) => m.savedPercent)) >= 90, JSON.stringify(long.map((m) => [m.file, m.savedPercent])));
  assert.ok(median(long.map((m) => m.textSavedPercent)) >= 90);
  for (const m of long) assert.ok(m.savedPercent >= 85, `${m.file}: ${m.savedPercent}%`);
});

test('the checked facts survive: at least 90% overall and at least two thirds of each document\'s', () => {
  const total = measures.reduce((sum, m) => sum + m.facts.length, 0);
  const lost = measures.flatMap((m) => m.missing.map((fact) => `${m.file}: ${fact}`));
  assert.ok((total - lost.length) / total >= 0.9, `lost: ${lost.join('; ')}`);
  for (const m of measures) assert.ok(m.missing.length / m.facts.length <= 1 / 3, `${m.file} lost ${m.missing.join(', ')}`);
});

test('docs/distill-savings.md is the current measurement (regenerate with scripts/measure-distill.ts)', () => {
  const written = readFileSync(new URL('../../../docs/distill-savings.md', import.meta.url), 'utf8');
  assert.equal(written, savingsReport(measures));
});
