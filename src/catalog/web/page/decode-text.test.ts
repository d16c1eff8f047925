import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decodeBody } from './decode-text.ts';

const bytes = (...parts: (string | number[])[]) =>
  Buffer.concat(parts.map((part) => (typeof part === 'string' ? Buffer.from(part, 'latin1') : Buffer.from(part))));

describe('decodeBody', () => {
  it('lets a UTF-8 byte order mark win over the header, and drops it', () => {
    const decoded = decodeBody(bytes([0xef, 0xbb, 0xbf], 'caf', [0xc3, 0xa9]), 'text/html; charset=windows-1252');
    assert.deepEqual(decoded, { text: 'café', charset: 'utf-8', charsetSource: 'bom' });
  });

  it('reads UTF-16 little- and big-endian text from its byte order mark', () => {
    assert.equal(decodeBody(bytes([0xff, 0xfe, 0x68, 0x00, 0xe9, 0x00]), 'text/plain').text, 'hé');
    const big = decodeBody(bytes([0xfe, 0xff, 0x65, 0xe5, 0x67, 0x2c]), undefined);
    assert.deepEqual(big, { text: '日本', charset: 'utf-16be', charsetSource: 'bom' });
  });

  it('takes the Content-Type charset, reading latin1 and us-ascii as windows-1252', () => {
    // "café €": 0x80 is the euro sign in windows-1252, a control character in true ISO-8859-1.
    const body = bytes('caf', [0xe9, 0x20, 0x80]);
    for (const label of ['windows-1252', 'ISO-8859-1', 'latin1', '"us-ascii"']) {
      assert.deepEqual(decodeBody(body, `text/html; charset=${label}`), { text: 'café €', charset: 'windows-1252', charsetSource: 'header' });
    }
  });

  it('decodes the legacy CJK and Cyrillic encodings from real byte sequences', () => {
    const cases: [string, number[], string, string][] = [
      ['Shift_JIS', [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea], '日本語', 'shift_jis'],
      ['x-sjis', [0x93, 0xfa, 0x96, 0x7b, 0x8c, 0xea], '日本語', 'shift_jis'],
      ['EUC-JP', [0xc6, 0xfc, 0xcb, 0xdc, 0xb8, 0xec], '日本語', 'euc-jp'],
      ['euc-kr', [0xc7, 0xd1, 0xb1, 0xb9, 0xbe, 0xee], '한국어', 'euc-kr'],
      ['ks_c_5601-1987', [0xc7, 0xd1, 0xb1, 0xb9, 0xbe, 0xee], '한국어', 'euc-kr'],
      ['big5', [0xa4, 0xa4, 0xa4, 0xe5], '中文', 'big5'],
      ['koi8-r', [0xf0, 0xd2, 0xc9, 0xd7, 0xc5, 0xd4], 'Привет', 'koi8-r'],
      ['windows-1251', [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2], 'Привет', 'windows-1251'],
      ['windows-1250', [0xa3, 0xf3, 0x64, 0x9f], 'Łódź', 'windows-1250'],
    ];
    for (const [label, raw, text, charset] of cases) {
      assert.deepEqual(decodeBody(Buffer.from(raw), `text/plain; charset=${label}`), { text, charset, charsetSource: 'header' }, label);
    }
  });

  it('reads gb2312 and GBK labels with the gb18030 decoder, four-byte sequences included', () => {
    // 中文 in two-byte GBK, then U+20000 as a gb18030 four-byte sequence.
    const body = Buffer.from([0xd6, 0xd0, 0xce, 0xc4, 0x95, 0x32, 0x82, 0x36]);
    for (const label of ['gb2312', 'GBK', 'gb18030']) assert.equal(decodeBody(body, `text/html; charset=${label}`).text, '中文𠀀', label);
  });

  it('falls back to the <meta charset> of an HTML page', () => {
    const body = bytes('<!doctype html><html><head><meta charset="shift_jis"><title>', [0x93, 0xfa, 0x96, 0x7b], '</title>');
    const decoded = decodeBody(body, 'text/html');
    assert.equal(decoded.charset, 'shift_jis');
    assert.equal(decoded.charsetSource, 'meta');
    assert.match(decoded.text, /<title>日本<\/title>/);
  });

  it('reads <meta http-equiv="Content-Type"> and skips declarations inside comments', () => {
    const body = bytes(
      '<html><head><!-- <meta charset="koi8-r"> --><META HTTP-EQUIV="Content-Type" CONTENT="text/html; charset=windows-1251"></head><body>',
      [0xcf, 0xf0, 0xe8, 0xe2, 0xe5, 0xf2],
    );
    const decoded = decodeBody(body, 'text/html');
    assert.deepEqual([decoded.charset, decoded.charsetSource], ['windows-1251', 'meta']);
    assert.ok(decoded.text.endsWith('Привет'));
  });

  it('ignores a <meta> beyond the first 1024 bytes', () => {
    const body = bytes('<html><head>', ' '.repeat(1100), '<meta charset="koi8-r"></head>caf', [0xc3, 0xa9]);
    assert.deepEqual([decodeBody(body, 'text/html').charset, decodeBody(body, 'text/html').charsetSource], ['utf-8', 'default']);
  });

  it('reads a <meta> declaring UTF-16 as UTF-8, as the HTML standard says', () => {
    const decoded = decodeBody(bytes('<meta charset="utf-16">caf', [0xc3, 0xa9]), 'text/html');
    assert.deepEqual([decoded.charset, decoded.text.endsWith('café')], ['utf-8', true]);
  });

  it('does not look for <meta> in a non-HTML type, but reads an XML declaration in XML', () => {
    assert.equal(decodeBody(bytes('<meta charset="koi8-r">'), 'text/plain').charsetSource, 'default');
    const feed = decodeBody(bytes('<?xml version="1.0" encoding="ISO-8859-1"?><rss>caf', [0xe9], '</rss>'), 'application/rss+xml');
    assert.deepEqual([feed.charset, feed.charsetSource, feed.text.includes('café')], ['windows-1252', 'meta', true]);
  });

  it('skips an unknown header label and keeps looking', () => {
    const decoded = decodeBody(bytes('<meta charset=euc-kr>', [0xc7, 0xd1]), 'text/html; charset=no-such-charset');
    assert.deepEqual([decoded.charset, decoded.charsetSource, decoded.text.endsWith('한')], ['euc-kr', 'meta', true]);
  });

  it('defaults to UTF-8, even when the body was cut inside a character', () => {
    const cut = bytes('caf', [0xc3, 0xa9, 0x20, 0xe6, 0x97]);
    assert.deepEqual([decodeBody(cut, undefined).charset, decodeBody(cut, undefined).charsetSource], ['utf-8', 'default']);
  });

  it('defaults to windows-1252 when the bytes are not UTF-8', () => {
    assert.deepEqual(decodeBody(bytes('na', [0xef], 've ', [0x93], 'q', [0x94]), 'text/html'), { text: 'naïve “q”', charset: 'windows-1252', charsetSource: 'default' });
  });
});
