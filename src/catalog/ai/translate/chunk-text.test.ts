import assert from 'node:assert/strict';
import { test } from 'node:test';
import { codePoints, joinTranslated, splitForTranslation, utf8Bytes } from './chunk-text.ts';

const rebuilt = (pieces: ReturnType<typeof splitForTranslation>) => pieces.map((p) => p.lead + p.core + p.trail).join('');

test('short text is one piece; whitespace around it is kept aside', () => {
  assert.deepEqual(splitForTranslation('  Hello there.\n', 500, utf8Bytes), [{ lead: '  ', core: 'Hello there.', trail: '\n' }]);
});

test('sentences are packed up to the limit; a line break always ends a piece; the pieces rebuild the text', () => {
  const text = 'Hello there. How are you?\n\n  Second paragraph! Yes.  ';
  const pieces = splitForTranslation(text, 25, utf8Bytes);
  assert.deepEqual(pieces, [
    { lead: '', core: 'Hello there. How are you?', trail: '\n' },
    { lead: '\n', core: '', trail: '' },
    { lead: '  ', core: 'Second paragraph! Yes.', trail: '  ' },
  ]);
  assert.equal(rebuilt(pieces), text);
});

test('the limit is in UTF-8 bytes for MyMemory: three-byte characters fill it three times faster', () => {
  const text = '今日は良い天気ですね。明日も晴れるでしょう。';
  const pieces = splitForTranslation(text, 40, utf8Bytes);
  assert.deepEqual(pieces.map((p) => p.core), ['今日は良い天気ですね。', '明日も晴れるでしょう。']);
  assert.deepEqual(splitForTranslation(text, 40, codePoints).map((p) => p.core), [text]);
});

test('a sentence over the limit is cut between words, and a word over it between characters', () => {
  assert.deepEqual(splitForTranslation('one two three four five six', 10, utf8Bytes).map((p) => p.core), ['one two', 'three four', 'five six']);
  const word = 'a'.repeat(25);
  const pieces = splitForTranslation(`${word} bb`, 10, utf8Bytes);
  assert.deepEqual(pieces.map((p) => p.core), ['aaaaaaaaaa', 'aaaaaaaaaa', 'aaaaa bb']);
  assert.equal(rebuilt(pieces), `${word} bb`);
  const emoji = '👍🏽'.repeat(5);
  assert.ok(splitForTranslation(emoji, 10, utf8Bytes).every((p) => [...new Intl.Segmenter().segment(p.core)].length >= 1 && !p.core.includes('\uFFFD')));
  assert.equal(rebuilt(splitForTranslation(emoji, 10, utf8Bytes)), emoji);
});

test('translations go back between the kept whitespace, pieces with nothing to translate passed through', () => {
  const pieces = splitForTranslation('Hi there.\n\nBye now.\n', 500, utf8Bytes);
  assert.equal(joinTranslated(pieces, ['Hola.', 'Adiós.']), 'Hola.\n\nAdiós.\n');
});
