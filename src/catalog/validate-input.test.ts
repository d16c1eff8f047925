import assert from 'node:assert/strict';
import { test } from 'node:test';
import { searchTool } from '../catalog/web/search.ts';
import { summarizeIssues, validateInput } from './validate-input.ts';

test('defaults are applied and valid input passes', () => {
  const verdict = validateInput(searchTool.input, { query: 'x402' });
  assert.deepEqual(verdict, { ok: true, value: { query: 'x402', limit: 5 } });
});

test('a missing field is named as required', () => {
  const verdict = validateInput(searchTool.input, {});
  assert.equal(verdict.ok, false);
  if (verdict.ok) return;
  assert.deepEqual(verdict.issues.map((i) => i.field), ['query']);
  assert.match(verdict.issues[0]!.message, /query is required \(expected string\)/);
});

test('an out-of-range value names the field and the bound', () => {
  const verdict = validateInput(searchTool.input, { query: 'q', limit: 11 });
  assert.equal(verdict.ok, false);
  if (verdict.ok) return;
  assert.equal(verdict.issues[0]!.field, 'limit');
  assert.match(summarizeIssues(verdict.issues), /limit: .*10/);
});
