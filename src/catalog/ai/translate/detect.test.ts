import assert from 'node:assert/strict';
import { test } from 'node:test';
import { detectLanguage, RELIABLE_CONFIDENCE } from './detect.ts';

test('a sentence or two is detected reliably, as an ISO 639-1 code with its name', () => {
  const english = detectLanguage('Good morning, how are you? I hope you are well today and that the weather is nice.');
  assert.equal(english.language, 'en');
  assert.equal(english.name, 'English');
  assert.ok(english.reliable && english.confidence >= RELIABLE_CONFIDENCE);
  assert.equal(english.candidates[0]!.language, 'en');
  assert.equal(detectLanguage('Bonjour tout le monde, comment allez-vous?').language, 'fr');
});

test('a script that belongs to one language decides alone, with confidence 1', () => {
  assert.deepEqual(detectLanguage('今日は良い天気ですね'), { language: 'ja', name: 'Japanese', confidence: 1, reliable: true, candidates: [{ language: 'ja', score: 1 }] });
  assert.equal(detectLanguage('你好，世界，今天天气很好').language, 'zh');
});

test('a short greeting gets a guess, flagged unreliable; a very short text or no letters gets none', () => {
  const greeting = detectLanguage('Good morning, how are you?');
  assert.equal(greeting.reliable, false);
  assert.ok(greeting.confidence < RELIABLE_CONFIDENCE);
  assert.deepEqual(detectLanguage('Hi there'), { language: null, name: null, confidence: 0, reliable: false, candidates: [] });
  assert.equal(detectLanguage('1234567890 1234567890').language, null);
});
