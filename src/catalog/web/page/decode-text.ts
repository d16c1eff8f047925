// Bytes of a fetched page to text, choosing the encoding the way a browser does: a byte order
// mark, then the Content-Type charset, then the document's own declaration, then a guess.
import { prescanHtmlCharset, xmlDeclaredCharset } from './charset-prescan.ts';
import { parseContentType } from './content-type.ts';
import { decodeWith, isUtf8, resolveEncoding } from './encoding-label.ts';

export type CharsetSource = 'bom' | 'header' | 'meta' | 'default';

export interface DecodedText {
  text: string;
  /** The WHATWG name of the encoding used ("utf-8", "windows-1252", "shift_jis"...). */
  charset: string;
  /** 'meta' covers a document's own declaration: <meta> in HTML, the XML declaration in XML. */
  charsetSource: CharsetSource;
}

export function decodeBody(body: Buffer, contentType: string | undefined): DecodedText {
  const bom = byteOrderMark(body);
  if (bom) return { text: decodeWith(body.subarray(bom.length), bom.encoding), charset: bom.encoding, charsetSource: 'bom' };

  const { mimeType, charset: headerLabel } = parseContentType(contentType);
  const fromHeader = headerLabel ? resolveEncoding(headerLabel) : null;
  if (fromHeader) return { text: decodeWith(body, fromHeader), charset: fromHeader, charsetSource: 'header' };

  const fromDocument = declaredInDocument(body, mimeType);
  if (fromDocument) return { text: decodeWith(body, fromDocument), charset: fromDocument, charsetSource: 'meta' };

  // Pages without any declaration are mostly UTF-8 today; older ones are mostly Western European.
  const guess = isUtf8(body) ? 'utf-8' : 'windows-1252';
  return { text: decodeWith(body, guess), charset: guess, charsetSource: 'default' };
}

function byteOrderMark(body: Buffer): { encoding: string; length: number } | null {
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return { encoding: 'utf-8', length: 3 };
  if (body[0] === 0xff && body[1] === 0xfe) return { encoding: 'utf-16le', length: 2 };
  if (body[0] === 0xfe && body[1] === 0xff) return { encoding: 'utf-16be', length: 2 };
  return null;
}

const isXml = (mimeType: string) => mimeType.endsWith('/xml') || mimeType.endsWith('+xml');

function declaredInDocument(body: Buffer, mimeType: string): string | null {
  const unknownType = mimeType === '' || mimeType === 'application/octet-stream';
  const label = (isXml(mimeType) || unknownType ? xmlDeclaredCharset(body) : null) ?? (mimeType.includes('html') || unknownType ? prescanHtmlCharset(body) : null);
  if (!label) return null;
  const encoding = resolveEncoding(label);
  // The HTML standard: bytes that could be read to find this <meta> are not UTF-16.
  if (encoding === 'utf-16le' || encoding === 'utf-16be') return 'utf-8';
  if (encoding === null && label.trim().toLowerCase() === 'x-user-defined') return 'windows-1252';
  return encoding;
}
