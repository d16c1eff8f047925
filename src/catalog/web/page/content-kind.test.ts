import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ToolError } from '../../tool.ts';
import { classifyContent, declaresBinary, readableKind, refuseUnsupportedContent } from './content-kind.ts';

const text = (value: string) => Buffer.from(value, 'utf8');
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d]);
const PDF = text('%PDF-1.4\n%\xe2\xe3\n1 0 obj');
const kindOf = (contentType: string | undefined, body: Buffer) => classifyContent(contentType, body).kind;

describe('classifyContent', () => {
  it('follows the declared type for pages, XHTML, PDFs and text', () => {
    assert.equal(kindOf('text/html; charset=utf-8', text('<!doctype html><p>x')), 'html');
    assert.equal(kindOf('application/xhtml+xml', text('<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml">')), 'xhtml');
    assert.equal(kindOf('application/pdf', PDF), 'pdf');
    for (const type of ['text/plain', 'text/markdown', 'text/csv', 'application/json', 'application/ld+json', 'application/rss+xml', 'application/atom+xml', 'text/xml']) {
      assert.equal(kindOf(type, text('a,b\n1,2')), 'text', type);
    }
  });

  it('refuses images, media, archives and fonts by type', () => {
    for (const type of ['image/jpeg', 'image/svg+xml', 'video/mp4', 'audio/mpeg', 'application/zip', 'font/woff2', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document']) {
      assert.equal(kindOf(type, text('whatever')), 'binary', type);
    }
  });

  it('sniffs octet-stream and untyped bodies', () => {
    assert.deepEqual(classifyContent('application/octet-stream', PDF), { kind: 'pdf', mimeType: 'application/octet-stream', sniffed: true });
    assert.equal(kindOf(undefined, text('\n  <!DOCTYPE html><html><body>hi')), 'html');
    assert.equal(kindOf('application/octet-stream', text('\ufeff<html lang="en">')), 'html');
    assert.equal(kindOf(undefined, text('just some notes\nin plain text')), 'text');
    assert.equal(kindOf('application/octet-stream', PNG), 'binary');
    assert.equal(kindOf(undefined, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00])), 'binary');
  });

  it('believes the bytes over a text type when they are binary or a PDF', () => {
    assert.deepEqual(classifyContent('text/plain', PNG), { kind: 'binary', mimeType: 'text/plain', sniffed: true });
    assert.equal(kindOf('text/plain', text('abc\x00\x01\x02def')), 'binary');
    assert.equal(kindOf('text/html', PDF), 'pdf');
  });

  it('keeps UTF-16 text with a byte order mark as text despite its zero bytes', () => {
    assert.equal(kindOf('text/plain', Buffer.from([0xff, 0xfe, 0x68, 0x00, 0x69, 0x00])), 'text');
  });
});

describe('refusing binary content', () => {
  it('throws a 422 unsupported_content naming the content type', () => {
    assert.throws(
      () => refuseUnsupportedContent(classifyContent('image/png', PNG)),
      (error: unknown) => error instanceof ToolError && error.status === 422 && error.code === 'unsupported_content' && error.message.includes('image/png'),
    );
    assert.throws(() => readableKind(classifyContent(undefined, PNG)), /content without a type/);
  });

  it('passes readable kinds through', () => {
    assert.equal(readableKind(classifyContent('text/html', text('<p>x'))), 'html');
    assert.equal(readableKind(classifyContent('application/pdf', PDF)), 'pdf');
  });
});

describe('declaresBinary', () => {
  it('media, fonts, archives and programs are known from their type alone', () => {
    for (const type of ['image/png', 'video/mp4', 'audio/mpeg; codecs=mp3', 'font/woff2', 'application/zip', 'application/x-msdownload']) {
      assert.equal(declaresBinary(type), true, type);
    }
  });

  it('pages, text, PDFs and uninformative or odd types are read and sniffed', () => {
    for (const type of [undefined, 'text/html; charset=utf-8', 'application/pdf', 'application/octet-stream', 'application/json', 'application/x-unheard-of']) {
      assert.equal(declaresBinary(type), false, String(type));
    }
  });
});
