import assert from 'node:assert/strict';
import { test } from 'node:test';
import { FRANC_CODES, LANGUAGES, languageOf, languageOfFranc, SUPPORTED_CODES } from './languages.ts';

test('at least 50 languages, each code unique, ISO 639-1 with at most a region', () => {
  assert.ok(LANGUAGES.length >= 50, String(LANGUAGES.length));
  assert.equal(new Set(SUPPORTED_CODES.map((code) => code.toLowerCase())).size, SUPPORTED_CODES.length);
  for (const code of SUPPORTED_CODES) assert.match(code, /^[a-z]{2}(-[A-Z]{2})?$/);
});

test('codes are found in any letter case; unknown codes are not', () => {
  assert.equal(languageOf('PT-br')?.code, 'pt-BR');
  assert.equal(languageOf(' de ')?.name, 'German');
  assert.equal(languageOf('xx'), undefined);
  assert.equal(languageOf('auto'), undefined);
});

test("franc's ISO 639-3 codes map back to ours, macrolanguage members included", () => {
  assert.equal(languageOfFranc('arb')?.code, 'ar');
  assert.equal(languageOfFranc('cmn')?.code, 'zh');
  assert.equal(languageOfFranc('zlm')?.code, 'ms');
  assert.equal(languageOfFranc('fuv'), undefined);
  assert.equal(new Set(FRANC_CODES).size, FRANC_CODES.length);
});
