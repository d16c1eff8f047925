import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { countWords, excerptOf } from './word-count.ts';

describe('countWords', () => {
  it('counts spaced words, not punctuation', () => {
    assert.equal(countWords('  The quick — brown fox, 2 times | https://x.example.org/a. '), 7);
    assert.equal(countWords(''), 0);
  });

  it('segments Chinese, Japanese and Thai text written without spaces', () => {
    assert.ok(countWords('明日の東京は一日中晴れるでしょう。') >= 6);
    assert.ok(countWords('我们今天去公园散步') >= 4);
    assert.ok(countWords('ภาษาไทยไม่มีการเว้นวรรค') >= 4);
    assert.equal(countWords('Tokyo 東京 weather'), 3);
  });

  it('stays linear on long unspaced text', { timeout: 20_000 }, () => {
    const text = '明日の東京は一日中晴れるでしょう。'.repeat(6000);
    const started = performance.now();
    const count = countWords(text);
    assert.ok(count > 40_000, String(count));
    assert.ok(performance.now() - started < 10_000);
  });
});

describe('excerptOf', () => {
  it('cuts at a word boundary and marks the cut', () => {
    assert.equal(excerptOf('one two three four five', 20), 'one two three four…');
    assert.equal(excerptOf('  short\n text '), 'short text');
    assert.equal(excerptOf(' \n '), null);
  });
});
