import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PayerStanding } from './payer-standing.ts';

const standing = (clock: () => number) => new PayerStanding({ probationMs: 60_000, cooldownMs: 600_000, chainFailuresPerHour: 2, clock });

test('a chain refusal puts the payer on probation (one run at a time), which ends by itself', () => {
  let now = 0;
  const s = standing(() => now);
  assert.equal(s.onProbation('0xAA'), false);
  s.refusedByChain('0xAA');
  assert.equal(s.onProbation('0xaa'), true);
  assert.equal(s.refusal('0xaa'), undefined, 'probation is not a refusal');
  assert.equal(s.enterProbationRun('0xAA'), true);
  assert.equal(s.enterProbationRun('0xaa'), false);
  s.leaveProbationRun('0xAA');
  assert.equal(s.enterProbationRun('0xAA'), true);
  now = 60_001;
  assert.equal(s.onProbation('0xAA'), false);
});

test('a settlement failed on chain refuses the payer for the cooldown, and draws on the hour\'s budget', () => {
  let now = 0;
  const s = standing(() => now);
  assert.equal(s.chainFailureBudgetLeft(), true);
  s.failedOnChain('0xBB');
  assert.match(s.refusal('0xbb') ?? '', /^payer_cooling_down: .* 600 s more/);
  s.failedOnChain('0xCC');
  assert.equal(s.chainFailureBudgetLeft(), false);
  now = 600_001;
  assert.equal(s.refusal('0xBB'), undefined);
  assert.equal(s.onProbation('0xBB'), true, 'probation outlasts the cooldown');
  now = 3_600_001;
  assert.equal(s.chainFailureBudgetLeft(), true);
});

test('coolDown refuses without drawing on the budget', () => {
  const s = standing(() => 0);
  s.coolDown('0xDD');
  assert.ok(s.refusal('0xDD'));
  assert.equal(s.chainFailureBudgetLeft(), true);
});
