// The shipped unit weights are what the training script learns from the sets it names: nobody edited them by hand, and
// a change to the features or the sets is followed by a retraining (npm run train:distill).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { labelledDocuments, TRAINING_SETS, trainWeights } from '../../../scripts/train-distill-scorer.ts';
import { UNIT_WEIGHTS } from './distill/unit-weights.ts';

/** Weights are written to 4 decimals; another runtime's Math.exp may differ in the last bits. */
const TOLERANCE = 2e-4;

test('the shipped unit weights are those the training script learns from its sets', { timeout: 300_000 }, async () => {
  const trained = trainWeights(await labelledDocuments(TRAINING_SETS));
  assert.deepEqual(Object.keys(UNIT_WEIGHTS), Object.keys(trained));
  for (const [name, weight] of Object.entries(trained)) assert.ok(Math.abs(weight - UNIT_WEIGHTS[name]!) <= TOLERANCE, `${name}: shipped ${UNIT_WEIGHTS[name]}, trained ${weight}`);
});
