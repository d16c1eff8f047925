// Encoding labels as the WHATWG Encoding standard reads them ("latin1" is windows-1252, "gb2312"
// is GBK...), decoded with Node's TextDecoder when its ICU knows the encoding, else iconv-lite.
import iconv from 'iconv-lite';

/**
 * The labels that matter most on the web, for Node builds without full ICU, whose TextDecoder
 * knows only UTF-8/16 and latin1. iconv-lite alone would read "latin1" and "us-ascii" as true
 * ISO-8859-1, which the web does not.
 */
const WHATWG_LABELS: Readonly<Record<string, string>> = {
  'ansi_x3.4-1968': 'windows-1252', ascii: 'windows-1252', cp1252: 'windows-1252', cp819: 'windows-1252', csisolatin1: 'windows-1252', ibm819: 'windows-1252', 'iso-8859-1': 'windows-1252', 'iso-ir-100': 'windows-1252', 'iso8859-1': 'windows-1252', iso88591: 'windows-1252', 'iso_8859-1': 'windows-1252', 'iso_8859-1:1987': 'windows-1252', l1: 'windows-1252', latin1: 'windows-1252', 'us-ascii': 'windows-1252', 'x-cp1252': 'windows-1252',
  'iso-8859-9': 'windows-1254', 'iso8859-9': 'windows-1254', latin5: 'windows-1254', l5: 'windows-1254',
  'iso-8859-11': 'windows-874', 'tis-620': 'windows-874', 'dos-874': 'windows-874',
  chinese: 'gb18030', csgb2312: 'gb18030', gb2312: 'gb18030', gb_2312: 'gb18030', 'gb_2312-80': 'gb18030', gbk: 'gb18030', 'iso-ir-58': 'gb18030', 'x-gbk': 'gb18030',
  csshiftjis: 'shift_jis', ms932: 'shift_jis', ms_kanji: 'shift_jis', sjis: 'shift_jis', 'windows-31j': 'shift_jis', 'x-sjis': 'shift_jis',
  cseuckr: 'euc-kr', 'ks_c_5601-1987': 'euc-kr', 'ks_c_5601-1989': 'euc-kr', korean: 'euc-kr', 'windows-949': 'euc-kr',
  'big5-hkscs': 'big5', 'cn-big5': 'big5', csbig5: 'big5', 'x-x-big5': 'big5',
  cskoi8r: 'koi8-r', koi: 'koi8-r', koi8: 'koi8-r', koi8_r: 'koi8-r', 'koi8-ru': 'koi8-u',
  'unicode-1-1-utf-8': 'utf-8', unicode11utf8: 'utf-8', unicode20utf8: 'utf-8', utf8: 'utf-8', 'x-unicode20utf8': 'utf-8',
  'csunicode': 'utf-16le', 'iso-10646-ucs-2': 'utf-16le', 'ucs-2': 'utf-16le', unicode: 'utf-16le', unicodefeff: 'utf-16le', 'utf-16': 'utf-16le',
};

/**
 * The encoding's canonical WHATWG name ("windows-1252", "shift_jis", "gbk"...) for a label, or
 * null when neither decoder knows it (this includes the "replacement" labels such as iso-2022-kr).
 */
export function resolveEncoding(label: string): string | null {
  const key = label.trim().toLowerCase();
  if (!key) return null;
  try {
    return new TextDecoder(key).encoding;
  } catch {
    const name = WHATWG_LABELS[key] ?? key;
    return iconv.encodingExists(name) ? name : null;
  }
}

/** Decodes with an encoding `resolveEncoding` returned; malformed bytes become U+FFFD. */
export function decodeWith(bytes: Uint8Array, encoding: string): string {
  // The standard's GBK decoder is its gb18030 decoder; ICU's "gbk" rejects four-byte sequences.
  const name = encoding === 'gbk' ? 'gb18030' : encoding;
  // Node 20's TextDecoder takes a Latin-1 shortcut for windows-1252 and turns 0x80-0x9F (€, “, ”, …)
  // into C1 control characters.
  if (name === 'windows-1252') return iconv.decode(asBuffer(bytes), name);
  try {
    return new TextDecoder(name).decode(bytes);
  } catch {
    return iconv.decode(asBuffer(bytes), name);
  }
}

const asBuffer = (bytes: Uint8Array) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);

/** True when the bytes are UTF-8, allowing a sequence cut at the very end (a truncated body). */
export function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
