// Learns distill_document's unit scorer (round 15) from the essential facts of its evaluation sets and writes the
// weights to src/catalog/ai/distill/unit-weights.ts. Each unit (scoring-units.ts) of each document is labelled by
// whether it holds one of the document's facts; a logistic regression is fitted to the labels by full-batch Adam, in a
// fixed order from zero weights, so the same sets always give the same weights. Each document counts as much as
// 1/sqrt(its units), and the rare positive units as much in all as the negative ones.
// Run: npm run train:distill                write the weights, trained on every set but the unseen ones (UNSEEN_SETS)
//      npm run train:distill -- --by-set    leave-one-set-out: each set measured with weights trained on the others
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { distill, readDocument } from '../src/catalog/ai/distill/distill-document.ts';
import type { UnitWeights } from '../src/catalog/ai/distill/learned-points.ts';
import { scoringUnits, type ScoringUnit } from '../src/catalog/ai/distill/scoring-units.ts';
import { CORPUS_DIRS, UNSEEN_SETS, loadCorpus, measureCorpus, figures, normalise, spellings, type CorpusName } from './measure-distill.ts';

export interface LabelledDocument {
  set: CorpusName;
  file: string;
  units: { unit: ScoringUnit; holdsFact: boolean }[];
}


/** Every unit of every document of `sets`, labelled by whether it holds one of the document's facts. */
export async function labelledDocuments(sets: readonly CorpusName[]): Promise<LabelledDocument[]> {
  const documents: LabelledDocument[] = [];
  for (const set of sets) {
    for (const entry of loadCorpus(set)) {
      const content = readFileSync(`${CORPUS_DIRS[set]}${entry.file}`, 'utf8');
      const { title, kind } = await distill(content, undefined);
      const read = readDocument(content);
      const facts = entry.facts.map((fact) => spellings(fact).map(normalise));
      const units = scoringUnits(read.blocks, title, read.codeTerms, kind).map((unit) => {
        const text = normalise(unit.text);
        return { unit, holdsFact: facts.some((fact) => fact.some((spelling) => text.includes(spelling))) };
      });
      documents.push({ set, file: entry.file, units });
    }
  }
  return documents;
}

const EPOCHS = 300;
const STEP = 0.05;
const L2 = 1e-4;
const [BETA1, BETA2, EPSILON] = [0.9, 0.999, 1e-8];
/** Weights are written to this many decimals. */
const DECIMALS = 4;

/** Logistic regression weights for `documents`' labels. */
export function trainWeights(documents: readonly LabelledDocument[]): Record<string, number> {
  const index = new Map<string, number>();
  const rows = documents.flatMap((document) =>
    document.units.map(({ unit, holdsFact }) => {
      const features = [...unit.features].map(([name, value]) => {
        if (!index.has(name)) index.set(name, index.size);
        return [index.get(name)!, value] as const;
      });
      return { features, label: holdsFact ? 1 : 0, weight: 1 / Math.sqrt(document.units.length) };
    }),
  );
  const positive = rows.reduce((sum, row) => sum + row.label * row.weight, 0);
  const negative = rows.reduce((sum, row) => sum + (1 - row.label) * row.weight, 0);
  const balance = negative / Math.max(1e-9, positive);
  const weights = new Float64Array(index.size);
  const [first, second] = [new Float64Array(index.size), new Float64Array(index.size)];
  for (let epoch = 1; epoch <= EPOCHS; epoch += 1) {
    const gradient = new Float64Array(index.size);
    let total = 0;
    for (const row of rows) {
      let z = 0;
      for (const [at, value] of row.features) z += weights[at]! * value;
      const weight = row.weight * (row.label ? balance : 1);
      const error = (1 / (1 + Math.exp(-z)) - row.label) * weight;
      total += weight;
      for (const [at, value] of row.features) gradient[at] = gradient[at]! + error * value;
    }
    for (let at = 0; at < weights.length; at += 1) {
      const g = gradient[at]! / total + L2 * weights[at]!;
      first[at] = BETA1 * first[at]! + (1 - BETA1) * g;
      second[at] = BETA2 * second[at]! + (1 - BETA2) * g * g;
      weights[at] = weights[at]! - (STEP * (first[at]! / (1 - BETA1 ** epoch))) / (Math.sqrt(second[at]! / (1 - BETA2 ** epoch)) + EPSILON);
    }
  }
  const rounded = [...index].map(([name, at]) => [name, Number(weights[at]!.toFixed(DECIMALS))] as const).filter(([, weight]) => weight !== 0);
  return Object.fromEntries(rounded.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** The sets the shipped weights are trained on: every set but the unseen ones, measured once with them. */
export const TRAINING_SETS = (Object.keys(CORPUS_DIRS) as CorpusName[]).filter((set) => !UNSEEN_SETS.includes(set));

export function weightsModule(weights: UnitWeights, documents: readonly LabelledDocument[]): string {
  const units = documents.reduce((sum, document) => sum + document.units.length, 0);
  const positive = documents.reduce((sum, document) => sum + document.units.filter((unit) => unit.holdsFact).length, 0);
  return [
    '// Generated by scripts/train-distill-scorer.ts (npm run train:distill); do not edit by hand.',
    `// Trained on the sets ${TRAINING_SETS.join(', ')}: ${documents.length} documents, ${units} units, ${positive} of them holding an essential fact.`,
    "import type { UnitWeights } from './learned-points.ts';",
    '',
    'export const UNIT_WEIGHTS: UnitWeights = {',
    ...Object.entries(weights).map(([name, weight]) => `  ${JSON.stringify(name)}: ${weight},`),
    '};',
    '',
  ].join('\n');
}

export const WEIGHTS_FILE = fileURLToPath(new URL('../src/catalog/ai/distill/unit-weights.ts', import.meta.url));

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const documents = await labelledDocuments(TRAINING_SETS);
  if (process.argv.includes('--by-set')) {
    let [kept, facts] = [0, 0];
    for (const set of TRAINING_SETS) {
      const weights = trainWeights(documents.filter((document) => document.set !== set));
      const measured = figures(await measureCorpus(set, {}, weights));
      [kept, facts] = [kept + measured.kept, facts + measured.facts];
      console.log(`${set.padEnd(8)} ${measured.kept}/${measured.facts} with weights trained without it`);
    }
    console.log(`all      ${kept}/${facts}`);
  } else {
    writeFileSync(WEIGHTS_FILE, weightsModule(trainWeights(documents), documents));
    console.log(`wrote ${WEIGHTS_FILE}`);
  }
}
