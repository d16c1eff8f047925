// What a fetched body is, from its Content-Type checked against its first bytes: servers label
// PDFs and pages "application/octet-stream", and now and then send an image as "text/plain".
import { ToolError } from '../../tool.ts';
import { parseContentType } from './content-type.ts';

export type ContentKind = 'html' | 'xhtml' | 'pdf' | 'text' | 'binary';

export interface ContentClass {
  kind: ContentKind;
  /** The declared MIME type ('' when none was sent). */
  mimeType: string;
  /** True when the bytes, not the declared type, decided the kind. */
  sniffed: boolean;
}

/** File signatures of common binary formats (images, media, archives, fonts, executables). */
const SIGNATURES: readonly (readonly (number | null)[])[] = [
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0x52, 0x49, 0x46, 0x46, null, null, null, null, 0x57, 0x45, 0x42, 0x50], // RIFF....WEBP
  [null, null, null, null, 0x66, 0x74, 0x79, 0x70], // ....ftyp (MP4, MOV, AVIF, HEIC)
  [0x1a, 0x45, 0xdf, 0xa3], // Matroska / WebM
  [0x4f, 0x67, 0x67, 0x53], // OggS
  [0x49, 0x44, 0x33], // ID3 (MP3)
  [0x50, 0x4b, 0x03, 0x04], // ZIP (and docx, xlsx, epub, jar)
  [0x1f, 0x8b], // gzip
  [0x37, 0x7a, 0xbc, 0xaf], // 7z
  [0x52, 0x61, 0x72, 0x21], // Rar!
  [0x7f, 0x45, 0x4c, 0x46], // ELF
  [0x00, 0x61, 0x73, 0x6d], // WebAssembly
  [0x77, 0x4f, 0x46, 0x46], // wOFF
  [0x77, 0x4f, 0x46, 0x32], // wOF2
  [0x00, 0x00, 0x01, 0x00], // ICO
];

const TEXT_APPLICATION_TYPES = new Set([
  'application/json', 'application/xml', 'application/javascript', 'application/ecmascript', 'application/x-javascript',
  'application/yaml', 'application/x-yaml', 'application/toml', 'application/x-ndjson', 'application/ndjson', 'application/csv',
  'application/sql', 'application/x-sh', 'application/x-httpd-php', 'application/graphql', 'application/x-tex', 'application/rtf',
]);

/** Types that say nothing about the content, so the bytes decide. */
const UNINFORMATIVE_TYPES = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown', 'application/x-unknown', 'application/force-download', 'application/download']);

/** Tags that open an HTML document, as in the MIME Sniffing standard's list. */
const HTML_START = /^(?:<!doctype html|<html|<head|<body|<script|<iframe|<h1|<div|<font|<table|<a|<style|<title|<b|<br|<p|<!--)(?:[\s>]|$)/i;

export function classifyContent(contentType: string | undefined, body: Uint8Array): ContentClass {
  const { mimeType } = parseContentType(contentType);
  const declared = declaredKind(mimeType);
  const sniffed = sniffKind(body);
  const decide = (kind: ContentKind): ContentClass => ({ kind, mimeType, sniffed: kind !== declared });

  if (sniffed === 'pdf' || sniffed === 'binary') return decide(sniffed);
  if (declared === 'binary' || declared === 'pdf') return decide(declared);
  if (declared === 'html' || declared === 'xhtml' || declared === 'text') return decide(declared);
  return decide(sniffed ?? 'text');
}

/** Declared types whose bytes no reader here can use, whatever they are: media, fonts, archives, programs. */
const BINARY_FAMILIES = /^(image|audio|video|font)\/|^application\/(zip|gzip|x-gzip|x-tar|x-7z-compressed|x-rar-compressed|vnd\.rar|x-bzip2|x-xz|zstd|wasm|x-msdownload|x-executable|vnd\.android\.package-archive|x-apple-diskimage|x-iso9660-image)$/;

/**
 * True when the Content-Type alone says the body is media, a font, an archive or a program: it is
 * refused without being read. Other binary-looking types are read (up to the cap) and sniffed, so
 * a PDF sent with an odd type is still found.
 */
export function declaresBinary(contentType: string | undefined): boolean {
  const { mimeType } = parseContentType(contentType);
  return declaredKind(mimeType) === 'binary' && BINARY_FAMILIES.test(mimeType);
}

/** Refuses a body the page readers cannot turn into text. The caller is not charged for a ToolError. */
export function refuseUnsupportedContent(content: ContentClass): never {
  const named = content.mimeType ? `content of type ${content.mimeType}` : 'content without a type';
  const detail = content.sniffed && content.mimeType ? ' (its bytes are binary)' : '';
  throw new ToolError(422, 'unsupported_content', `The page is ${named}${detail}, which cannot be read as text: only HTML, PDF and text documents can. You were not charged.`, {
    contentType: content.mimeType || null,
  });
}

/** The kind, or a refusal for binary content. */
export function readableKind(content: ContentClass): Exclude<ContentKind, 'binary'> {
  if (content.kind === 'binary') refuseUnsupportedContent(content);
  return content.kind;
}

function declaredKind(mimeType: string): ContentKind | null {
  if (UNINFORMATIVE_TYPES.has(mimeType)) return null;
  if (mimeType === 'text/html') return 'html';
  if (mimeType === 'application/xhtml+xml') return 'xhtml';
  if (mimeType === 'application/pdf' || mimeType === 'application/x-pdf') return 'pdf';
  if (mimeType === 'image/svg+xml') return 'binary';
  if (mimeType.startsWith('text/') || TEXT_APPLICATION_TYPES.has(mimeType)) return 'text';
  if (mimeType.endsWith('+json') || mimeType.endsWith('+xml')) return 'text';
  return 'binary';
}

/** The kind the first bytes show, or null when they look like text of no particular kind. */
function sniffKind(body: Uint8Array): ContentKind | null {
  if (startsWith(body, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf'; // %PDF-
  if (SIGNATURES.some((signature) => startsWith(body, signature))) return 'binary';
  const utf16 = (body[0] === 0xff && body[1] === 0xfe) || (body[0] === 0xfe && body[1] === 0xff);
  if (!utf16 && hasBinaryBytes(body)) return 'binary';
  const start = Buffer.from(body.buffer, body.byteOffset, Math.min(body.byteLength, 512)).toString('latin1').replace(/^(?:\xef\xbb\xbf)?[\t\n\f\r ]*/, '');
  return HTML_START.test(start) ? 'html' : null;
}

function startsWith(body: Uint8Array, signature: readonly (number | null)[]): boolean {
  if (body.length < signature.length) return false;
  return signature.every((byte, index) => byte === null || body[index] === byte);
}

/** The MIME Sniffing standard's "binary data bytes" in the first 512 bytes: controls that text never holds. */
function hasBinaryBytes(body: Uint8Array): boolean {
  const end = Math.min(body.length, 512);
  for (let i = 0; i < end; i += 1) {
    const byte = body[i]!;
    if (byte <= 0x08 || byte === 0x0b || (byte >= 0x0e && byte <= 0x1a) || (byte >= 0x1c && byte <= 0x1f)) return true;
  }
  return false;
}
