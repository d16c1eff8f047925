// Slow suite (node scripts/run-tests.mjs --slow distill-corpus). distill_document on its corpora of
// real documents (scripts/measure-distill.ts): fresh set 12 (round 13, unseen, measured once), fresh set 11 (round 12,
// measured once then, tuned on in round 13), fresh set 10 (round 11, measured once then), fresh set 9 (round 10,
// measured once then, tuned on in round 11), fresh set 8 (round 9, measured once then, tuned on in round 10), fresh set 7 (round 8, measured once then, tuned on in rounds 9 and 10),
// fresh set 6 (round 7, measured once then, tuned on in rounds 8 to 10), fresh set 5
// (round 6, measured once then, tuned on in round 7), fresh set 4
// (round 5, measured once then, tuned on in round 6), fresh set 3
// (round 4, measured once then, tuned on in rounds 5 and 6), fresh set 2
// (round 3, measured once then, looked at in round 4), the fresh
// set of round 2 (clean then, looked at in round 3), the test set, whose facts were written before the distiller first
// ran on it, the hold-out set added after round 1's heuristics were frozen (both looked at since), and
// the tuning set the heuristics were developed on. The thresholds
// are the figures reached when docs/distill-savings.md was last generated, less a small margin,
// so that a regression fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { before, test } from 'node:test';
import { byKind, figures, KINDS, loadCorpus, measureAll, measureDetails, savingsReport, type CorpusName, type DetailFigures, type DocumentMeasure, type Kind } from '../../../scripts/measure-distill.ts';

/**
 * Fresh set 12, measured once with round 13's final code: 58.9% of its facts kept (truncation at the same length 54.7%),
 * the least on a kind 50.0% (READMEs, licences, reference pages), median saving 82.5%. The thresholds pin that figure,
 * less a margin.
 */
const FRESH12_FACTS_KEPT = 0.57;
const FRESH12_KIND_FACTS_KEPT = 0.48;
const FRESH12_MEDIAN_SAVING = 82;
/**
 * Fresh set 11, measured once with round 12's final code: 57.3% of its facts kept (truncation at the same length 49.0%),
 * the least on a kind 31.3% (reference pages), median saving 83.7%. Tuned on in round 13; the thresholds still pin the
 * clean figure, less a margin.
 */
const FRESH11_FACTS_KEPT = 0.55;
const FRESH11_KIND_FACTS_KEPT = 0.3;
const FRESH11_MEDIAN_SAVING = 83;
/**
 * Fresh set 10, measured once with round 11's final code: 57.3% of its facts kept (truncation at the same length 52.1%),
 * the least on a kind 37.5% (reference pages), median saving 83.8%. Tuned on in round 12; the thresholds still pin the
 * clean figure, less a margin.
 */
const FRESH10_FACTS_KEPT = 0.55;
const FRESH10_KIND_FACTS_KEPT = 0.35;
const FRESH10_MEDIAN_SAVING = 83;
/**
 * Fresh set 9, measured once with round 10's final code: 57.3% of its facts kept (truncation at the same length 55.2%),
 * the least on a kind 37.5% (HTML pages), median saving 82.0%. Tuned on in round 11; the thresholds still pin the clean
 * figure, less a margin.
 */
const FRESH9_FACTS_KEPT = 0.55;
const FRESH9_KIND_FACTS_KEPT = 0.35;
const FRESH9_MEDIAN_SAVING = 81.5;
/**
 * Fresh set 8, measured once with round 9's final code: 69.5% of its facts kept (truncation at the same length 61.1%),
 * the least on a kind 56.3% (man pages), median saving 81.0%. Tuned on in round 10 (73.7% now); the thresholds still
 * pin the clean figure, less a margin.
 */
const FRESH8_FACTS_KEPT = 0.67;
const FRESH8_KIND_FACTS_KEPT = 0.54;
const FRESH8_MEDIAN_SAVING = 80.5;
/**
 * Fresh set 7, measured once with round 8's final code: 69.1% of its facts kept (truncation at the same length 56.4%),
 * the least on a kind 56.3% (HTML pages), median saving 83.0%. Tuned on in round 9 (83.0% now); the thresholds still
 * pin the clean figure, less a margin.
 */
const FRESH7_FACTS_KEPT = 0.67;
const FRESH7_KIND_FACTS_KEPT = 0.54;
const FRESH7_MEDIAN_SAVING = 82.5;
/**
 * Fresh set 6, measured once with round 7's final code: 62.4% of its facts kept (truncation at the same length 59.1%),
 * the least on a kind 43.8% (reference pages), median saving 82.5%. Tuned on in round 8 (72.0% now); the thresholds
 * still pin the clean figure, less a margin.
 */
const FRESH6_FACTS_KEPT = 0.6;
const FRESH6_KIND_FACTS_KEPT = 0.42;
const FRESH6_MEDIAN_SAVING = 82;
/**
 * Fresh set 5, measured once with round 6's final code: 71.0% of its facts kept (truncation at the same length 68.8%),
 * the least on a kind 50.0% (reference pages), median saving 79.7%. The thresholds pin that figure, less a margin.
 */
const FRESH5_FACTS_KEPT = 0.69;
const FRESH5_KIND_FACTS_KEPT = 0.48;
const FRESH5_MEDIAN_SAVING = 79.5;
/**
 * Fresh set 4, measured once with round 5's final code: 68.4% of its facts kept (truncation at the same length 64.7%),
 * the least on a kind 50.0% (reference pages), median saving 80.1%. Tuned on in round 6; the thresholds still pin the
 * clean figure, less a margin.
 */
const FRESH4_FACTS_KEPT = 0.66;
const FRESH4_KIND_FACTS_KEPT = 0.48;
const FRESH4_MEDIAN_SAVING = 79.5;
/**
 * Fresh set 3, measured once with round 4's final code: 71.8% of its facts kept (truncation at the same length
 * 70.2%), the least on a kind 52.4% (HTML pages), median saving 78.4%: below the 80% the issue asks for, since
 * most of its documents are short and the budget never goes below 300 tokens. The thresholds pin that figure.
 */
const FRESH3_FACTS_KEPT = 0.7;
const FRESH3_KIND_FACTS_KEPT = 0.5;
const FRESH3_MEDIAN_SAVING = 78;
/**
 * Fresh set 2, the clean figure: 65.8% of its facts kept when measured once (truncation at the same length
 * 65.2%: level with it, not clearly better; the goal of 90% is far off), the least on any one kind
 * 46.7% (reference pages), median saving 80.7%. 67.1% after one bug fix made after that measurement, 67.7% with round 4.
 */
const FRESH2_FACTS_KEPT = 0.63;
// 0.4, down from 0.44: round 4's opening keeps one reference-page fact fewer there (6/15, 7/15 before; truncation 6/15).
const FRESH2_KIND_FACTS_KEPT = 0.4;
/** Round 2's fresh set, looked at in round 3: 76.4% kept (66.0% when it was clean), the least on a kind 60.0%. */
const FRESH_FACTS_KEPT = 0.74;
const FRESH_KIND_FACTS_KEPT = 0.57;
/** Test set: share of all facts kept (87.4% when last measured, partly in-sample), and the least share kept on any one kind (80.6%, reference pages). */
const TEST_FACTS_KEPT = 0.85;
const TEST_KIND_FACTS_KEPT = 0.78;
/** Median saving at the default budget, on each set. */
const MEDIAN_SAVING = 80;

let sets: Record<CorpusName, DocumentMeasure[]>;
let fresh12: DocumentMeasure[];
let fresh11: DocumentMeasure[];
let fresh10: DocumentMeasure[];
let fresh9: DocumentMeasure[];
let fresh8: DocumentMeasure[];
let fresh7: DocumentMeasure[];
let fresh6: DocumentMeasure[];
let fresh5: DocumentMeasure[];
let fresh4: DocumentMeasure[];
let fresh3: DocumentMeasure[];
let fresh2: DocumentMeasure[];
let fresh: DocumentMeasure[];
let test_: DocumentMeasure[];
let tuning: DocumentMeasure[];
let holdout: DocumentMeasure[];
let details: DetailFigures;
before(async () => {
  sets = await measureAll();
  ({ fresh12, fresh11, fresh10, fresh9, fresh8, fresh7, fresh6, fresh5, fresh4, fresh3, fresh2, fresh, test: test_, holdout, tuning } = sets);
  details = await measureDetails();
});

const share = (kept: number, total: number) => kept / total;

/** A corpus's shape: at least `documents` documents, at least `perKind` of each of `kinds`, 5 to 8 facts each. */
function assertCorpusShape(name: CorpusName, documents: number, perKind: number, kinds: readonly Kind[] = KINDS): void {
  const loaded = loadCorpus(name);
  assert.ok(loaded.length >= documents);
  for (const kind of kinds) assert.ok(loaded.filter((document) => document.kind === kind).length >= perKind, kind);
  for (const document of loaded) assert.ok(document.facts.length >= 5 && document.facts.length <= 8, document.file);
}

/**
 * The share of facts kept overall and on every kind, and the median saving, at least the floors; against
 * truncation at the same length, `ahead` (more facts overall) or `level` (no fewer), when asked.
 */
function assertFactsKept(measures: readonly DocumentMeasure[], floor: { overall: number; perKind: number; medianSaving: number; truncation?: 'ahead' | 'level' }): void {
  const all = figures(measures);
  const lost = measures.flatMap((m) => m.missing.map((fact) => `${m.file}: ${fact}`));
  assert.ok(share(all.kept, all.facts) >= floor.overall, `kept ${all.kept}/${all.facts}; lost: ${lost.join('; ')}`);
  for (const [kind, group] of byKind(measures)) {
    const f = figures(group);
    assert.ok(share(f.kept, f.facts) >= floor.perKind, `${kind}: kept ${f.kept}/${f.facts}`);
  }
  if (floor.truncation === 'ahead') assert.ok(all.kept > all.truncationKept, `distilled ${all.kept}, truncated ${all.truncationKept} of ${all.facts}`);
  if (floor.truncation === 'level') assert.ok(all.kept >= all.truncationKept, `distilled ${all.kept}, truncated ${all.truncationKept} of ${all.facts}`);
  assert.ok(all.medianSaved >= floor.medianSaving, `median saving ${all.medianSaved}%`);
}

test('fresh set 12 has at least 12 documents, two of each kind, 5 to 8 facts each', () => {
  assertCorpusShape('fresh12', 12, 2);
});

test(`fresh set 12 (unseen, measured once): at least ${FRESH12_FACTS_KEPT * 100}% of the facts kept overall and ${FRESH12_KIND_FACTS_KEPT * 100}% on every kind, more than truncation overall, at a median saving of at least ${FRESH12_MEDIAN_SAVING}%`, () => {
  assertFactsKept(fresh12, { overall: FRESH12_FACTS_KEPT, perKind: FRESH12_KIND_FACTS_KEPT, medianSaving: FRESH12_MEDIAN_SAVING, truncation: 'ahead' });
});

test('fresh set 11 has at least 12 documents, two of each kind, 5 to 8 facts each', () => {
  assertCorpusShape('fresh11', 12, 2);
});

test(`fresh set 11 (measured once with round 12's code, tuned on in round 13): at least ${FRESH11_FACTS_KEPT * 100}% of the facts kept overall and ${FRESH11_KIND_FACTS_KEPT * 100}% on every kind, more than truncation overall, at a median saving of at least ${FRESH11_MEDIAN_SAVING}%`, () => {
  assertFactsKept(fresh11, { overall: FRESH11_FACTS_KEPT, perKind: FRESH11_KIND_FACTS_KEPT, medianSaving: FRESH11_MEDIAN_SAVING, truncation: 'ahead' });
});

test('fresh set 10 has at least 12 documents, two of each kind, 5 to 8 facts each', () => {
  assertCorpusShape('fresh10', 12, 2);
});

test(`fresh set 10 (measured once with round 11's code, tuned on in round 12): at least ${FRESH10_FACTS_KEPT * 100}% of the facts kept overall and ${FRESH10_KIND_FACTS_KEPT * 100}% on every kind, more than truncation overall, at a median saving of at least ${FRESH10_MEDIAN_SAVING}%`, () => {
  assertFactsKept(fresh10, { overall: FRESH10_FACTS_KEPT, perKind: FRESH10_KIND_FACTS_KEPT, medianSaving: FRESH10_MEDIAN_SAVING, truncation: 'ahead' });
});

test('fresh set 9 has at least 12 documents, two of each kind, 5 to 8 facts each', () => {
  assertCorpusShape('fresh9', 12, 2);
});

test(`fresh set 9 (measured once with round 10's code, tuned on in rounds 11 and 12): at least ${FRESH9_FACTS_KEPT * 100}% of the facts kept overall and ${FRESH9_KIND_FACTS_KEPT * 100}% on every kind, more than truncation overall, at a median saving of at least ${FRESH9_MEDIAN_SAVING}%`, () => {
  assertFactsKept(fresh9, { overall: FRESH9_FACTS_KEPT, perKind: FRESH9_KIND_FACTS_KEPT, medianSaving: FRESH9_MEDIAN_SAVING, truncation: 'ahead' });
});

test('fresh set 8 has at least 12 documents, two of each kind, 5 to 8 facts each', () => {
  assertCorpusShape('fresh8', 12, 2);
});

test(`fresh set 8 (measured once with round 9's code, tuned on in round 10): at least ${FRESH8_FACTS_KEPT * 100}% of the facts kept overall and ${FRESH8_KIND_FACTS_KEPT * 100}% on every kind, more than truncation overall, at a median saving of at least ${FRESH8_MEDIAN_SAVING}%`, () => {
  assertFactsKept(fresh8, { overall: FRESH8_FACTS_KEPT, perKind: FRESH8_KIND_FACTS_KEPT, medianSaving: FRESH8_MEDIAN_SAVING, truncation: 'ahead' });
});

test('fresh set 7 has at least 12 documents, two of each kind, 5 to 8 facts each', () => {
  assertCorpusShape('fresh7', 12, 2);
});

test(`fresh set 7 (measured once with round 8's code, tuned on in rounds 9 and 10): at least ${FRESH7_FACTS_KEPT * 100}% of the facts kept overall and ${FRESH7_KIND_FACTS_KEPT * 100}% on every kind, more than truncation overall, at a median saving of at least ${FRESH7_MEDIAN_SAVING}%`, () => {
  assertFactsKept(fresh7, { overall: FRESH7_FACTS_KEPT, perKind: FRESH7_KIND_FACTS_KEPT, medianSaving: FRESH7_MEDIAN_SAVING, truncation: 'ahead' });
});

test('fresh set 6 has at least 12 documents, two of each kind, 5 to 8 facts each', () => {
  assertCorpusShape('fresh6', 12, 2);
});

test(`fresh set 6 (measured once, tuned on in rounds 8 to 10): at least ${FRESH6_FACTS_KEPT * 100}% of the facts kept overall and ${FRESH6_KIND_FACTS_KEPT * 100}% on every kind, no fewer than truncation overall, at a median saving of at least ${FRESH6_MEDIAN_SAVING}%`, () => {
  assertFactsKept(fresh6, { overall: FRESH6_FACTS_KEPT, perKind: FRESH6_KIND_FACTS_KEPT, medianSaving: FRESH6_MEDIAN_SAVING, truncation: 'level' });
});

test('fresh set 5 has at least 18 documents, three of each kind, 5 to 8 facts each', () => {
  assertCorpusShape('fresh5', 18, 3);
});

test(`fresh set 5 (measured once, tuned on in round 7): at least ${FRESH5_FACTS_KEPT * 100}% of the facts kept overall and ${FRESH5_KIND_FACTS_KEPT * 100}% on every kind, no fewer than truncation overall, at a median saving of at least ${FRESH5_MEDIAN_SAVING}%`, () => {
  assertFactsKept(fresh5, { overall: FRESH5_FACTS_KEPT, perKind: FRESH5_KIND_FACTS_KEPT, medianSaving: FRESH5_MEDIAN_SAVING, truncation: 'level' });
});

test('fresh set 4 has at least 18 documents, three of each kind, 5 to 8 facts each', () => {
  assertCorpusShape('fresh4', 18, 3);
});

test(`fresh set 4 (measured once in round 5, tuned on in round 6): at least ${FRESH4_FACTS_KEPT * 100}% of the facts kept overall and ${FRESH4_KIND_FACTS_KEPT * 100}% on every kind, no fewer than truncation overall, at a median saving of at least ${FRESH4_MEDIAN_SAVING}%`, () => {
  assertFactsKept(fresh4, { overall: FRESH4_FACTS_KEPT, perKind: FRESH4_KIND_FACTS_KEPT, medianSaving: FRESH4_MEDIAN_SAVING, truncation: 'level' });
});

test('fresh set 3 has at least 18 documents, three of each kind, 5 to 8 facts each', () => {
  assertCorpusShape('fresh3', 18, 3);
});

test(`fresh set 3 (measured once in round 4, tuned on in rounds 5 and 6): at least ${FRESH3_FACTS_KEPT * 100}% of the facts kept overall and ${FRESH3_KIND_FACTS_KEPT * 100}% on every kind, no fewer than truncation overall, at a median saving of at least ${FRESH3_MEDIAN_SAVING}%`, () => {
  assertFactsKept(fresh3, { overall: FRESH3_FACTS_KEPT, perKind: FRESH3_KIND_FACTS_KEPT, medianSaving: FRESH3_MEDIAN_SAVING, truncation: 'level' });
});

test('fresh set 2 has at least 20 documents, at least four of each of the five kinds of the issue, 5 to 8 facts each', () => {
  assertCorpusShape('fresh2', 20, 4, ['readme', 'html', 'changelog', 'licence', 'man']);
});

test(`fresh set 2 (measured once in round 3, looked at in round 4): at least ${FRESH2_FACTS_KEPT * 100}% of the facts kept overall and ${FRESH2_KIND_FACTS_KEPT * 100}% on every kind, no fewer than truncation overall, at a median saving of at least ${MEDIAN_SAVING}%`, () => {
  assertFactsKept(fresh2, { overall: FRESH2_FACTS_KEPT, perKind: FRESH2_KIND_FACTS_KEPT, medianSaving: MEDIAN_SAVING, truncation: 'level' });
});

test('the fresh set has at least 18 documents, at least three of each kind, 5 to 8 facts each', () => {
  assertCorpusShape('fresh', 18, 3);
});

test(`fresh set (round 2, looked at in round 3): at least ${FRESH_FACTS_KEPT * 100}% of the facts kept overall and ${FRESH_KIND_FACTS_KEPT * 100}% on every kind, at a median saving of at least ${MEDIAN_SAVING}%`, () => {
  assertFactsKept(fresh, { overall: FRESH_FACTS_KEPT, perKind: FRESH_KIND_FACTS_KEPT, medianSaving: MEDIAN_SAVING });
});

test('the test set has at least 24 documents, at least four of each kind, 5 to 8 facts each', () => {
  assertCorpusShape('test', 24, 4);
});

test(`test set: at least ${TEST_FACTS_KEPT * 100}% of the facts kept overall and ${TEST_KIND_FACTS_KEPT * 100}% on every kind, at a median saving of at least ${MEDIAN_SAVING}%`, () => {
  assertFactsKept(test_, { overall: TEST_FACTS_KEPT, perKind: TEST_KIND_FACTS_KEPT, medianSaving: MEDIAN_SAVING });
});

test('test set: the answer keeps more facts than plain truncation at the same length overall, and no fewer on any kind', () => {
  const all = figures(test_);
  assert.ok(all.kept > all.truncationKept, `distilled ${all.kept}, truncated ${all.truncationKept} of ${all.facts}`);
  for (const [kind, group] of byKind(test_)) {
    const f = figures(group);
    assert.ok(f.kept >= f.truncationKept, `${kind}: distilled ${f.kept}, truncated ${f.truncationKept} of ${f.facts}`);
  }
});

test('hold-out set (measured once clean at 78.4%, looked at in round 2): at least 86% of the facts kept, more than truncation, median saving at least 80%', () => {
  const f = figures(holdout);
  assert.ok(share(f.kept, f.facts) >= 0.86, `kept ${f.kept}/${f.facts}`);
  assert.ok(f.kept > f.truncationKept, `distilled ${f.kept}, truncated ${f.truncationKept}`);
  assert.ok(f.medianSaved >= MEDIAN_SAVING);
});

test('tuning set: at least 90% of the facts kept, median saving at least 80%, more than truncation overall', () => {
  const f = figures(tuning);
  assert.ok(share(f.kept, f.facts) >= 0.9, `kept ${f.kept}/${f.facts}`);
  assert.ok(f.medianSaved >= MEDIAN_SAVING);
  assert.ok(f.kept > f.truncationKept);
});

test('docs/distill-savings.md is the current measurement (regenerate with npm run measure:distill)', () => {
  const written = readFileSync(new URL('../../../docs/distill-savings.md', import.meta.url), 'utf8');
  assert.equal(written, savingsReport(sets, details));
});

test('more detail keeps more facts, less saves more tokens', () => {
  assert.ok(details.brief.kept <= details.normal.kept && details.normal.kept <= details.full.kept);
  assert.ok(details.brief.medianSaved >= details.normal.medianSaved && details.normal.medianSaved >= details.full.medianSaved);
});
