// Issue 24, round 6 (density): a fact is served with the clause that carries its value, cut from the
// document's own sentence, so more facts fit the same budget.
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { clauseAround, compactMeaning, denseParagraph } from './distill/compact-clause.ts';
import { INFORMATIVE } from './distill/rank-sentences.ts';

describe('compact clauses', () => {
  test('a short sentence is kept whole', () => {
    assert.equal(clauseAround('The default is 5 seconds.', '5'), 'The default is 5 seconds.');
  });

  test('a long sentence is cut to the clause holding the value, with its neighbours while that clause is too short', () => {
    const sentence =
      'The exit status used for everything, except when using either of the options -n or -w which report a failure to acquire the lock with an exit status given by the -E option, or 1 by default.';
    const clause = clauseAround(sentence, '1 by default');
    assert.ok(clause.includes('or 1 by default'), clause);
    assert.ok(clause.startsWith('…'), clause);
    assert.ok(clause.length <= 112, clause);
    assert.ok(sentence.includes(clause.replace(/^…|…$/g, '').replace(/\.$/, '')), 'the clause is cut from the sentence, not reworded');
  });

  test('a meaning keeps its first clause and the sentences that give a default or a bound', () => {
    const meaning =
      'The exit status used when the -n option is in use, and the conflicting lock exists, or the -w option is in use, and the timeout is reached. The default value is 1. The number has to be in the range of 0 to 255.';
    const compact = compactMeaning(meaning);
    assert.ok(compact.startsWith('The exit status used when the -n option is in use'), compact);
    assert.ok(compact.includes('The default value is 1.'), compact);
    assert.ok(compact.includes('range of 0 to 255'), compact);
    assert.ok(compact.length < meaning.length);
  });
});

describe('the dense opening', () => {
  test('a paragraph keeps its first sentence and those that give a value or state a rule, marking what it leaves out', () => {
    const paragraph = 'Lackey is a simple tool. It is nice to use and people like it. The default is main. You will enjoy it.';
    assert.equal(denseParagraph(paragraph, INFORMATIVE), 'Lackey is a simple tool. … The default is main. …');
  });
});
