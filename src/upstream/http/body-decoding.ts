// Reading a response body: undoing its content-encoding (gzip, deflate, br) and cutting it at a
// cap counted in decoded bytes, so a small compressed body cannot expand into gigabytes.
import type { Readable } from 'node:stream';
import { Transform, Writable, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';

/** Thrown for a content-encoding this client did not ask for and cannot undo. */
export class UnsupportedEncodingError extends Error {
  constructor(readonly encoding: string) {
    super(`unsupported content-encoding "${encoding}"`);
    this.name = 'UnsupportedEncodingError';
  }
}

/**
 * Creates its decompressor when the first byte arrives: an empty body (a HEAD answer, a redirect)
 * that claims an encoding is no error, and "deflate" can be told apart as zlib-wrapped or raw,
 * since servers send both.
 */
class LazyDecoder extends Transform {
  private inner: Transform | undefined;
  private pendingFlush: TransformCallback | undefined;

  constructor(private readonly create: (firstChunk: Buffer) => Transform) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (chunk.length === 0) return done();
    if (!this.inner) this.inner = this.attach(this.create(chunk));
    if (this.inner.write(chunk)) done();
    else this.inner.once('drain', () => done());
  }

  override _read(size: number): void {
    this.inner?.resume();
    super._read(size);
  }

  override _flush(done: TransformCallback): void {
    if (!this.inner) return done();
    this.pendingFlush = done;
    this.inner.end();
  }

  override _destroy(error: Error | null, done: (error: Error | null) => void): void {
    this.inner?.destroy();
    done(error);
  }

  private attach(inner: Transform): Transform {
    // Honour the reader's pace, so a decompression bomb is not inflated ahead of the cap.
    inner.on('data', (data: Buffer) => {
      if (!this.push(data)) inner.pause();
    });
    inner.on('end', () => this.pendingFlush?.());
    inner.on('error', (error) => this.destroy(error));
    return inner;
  }
}

/** A zlib stream starts with CMF (method 8) and FLG such that CMF*256+FLG is a multiple of 31 (RFC 1950). */
function isZlibWrapped(chunk: Buffer): boolean {
  if (chunk.length < 2) return true;
  return (chunk[0]! & 0x0f) === 8 && ((chunk[0]! << 8) | chunk[1]!) % 31 === 0;
}

function decoderFor(encoding: string): Transform | null {
  switch (encoding) {
    case 'gzip':
    case 'x-gzip':
      return new LazyDecoder(() => createGunzip());
    case 'deflate':
      return new LazyDecoder((first) => (isZlibWrapped(first) ? createInflate() : createInflateRaw()));
    case 'br':
      return new LazyDecoder(() => createBrotliDecompress());
    case 'identity':
      return null;
    default:
      throw new UnsupportedEncodingError(encoding);
  }
}

/** The decoders for a content-encoding header, in the order they apply (the reverse of the encoding order). */
export function decodersFor(contentEncoding: string | undefined): Transform[] {
  const codings = (contentEncoding ?? '').split(',').map((coding) => coding.trim().toLowerCase()).filter((coding) => coding !== '');
  return codings.reverse().flatMap((coding) => decoderFor(coding) ?? []);
}

export interface CappedBody {
  body: Buffer;
  truncated: boolean;
}

/** Ends the pipeline once the cap is reached; pipeline then destroys every stream in it. */
class CapReached extends Error {}

/**
 * Reads `source` through `decoders` up to `maxBytes` decoded bytes. Past the cap it stops reading,
 * destroys the streams and answers exactly `maxBytes` bytes with `truncated: true`.
 */
export async function readCappedBody(source: Readable, decoders: readonly Transform[], maxBytes: number): Promise<CappedBody> {
  const chunks: Buffer[] = [];
  let size = 0;
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      const room = maxBytes - size;
      if (chunk.length > room) {
        chunks.push(chunk.subarray(0, room));
        size = maxBytes;
        return done(new CapReached());
      }
      chunks.push(chunk);
      size += chunk.length;
      done();
    },
  });
  try {
    await pipeline([source, ...decoders, sink]);
  } catch (error) {
    if (!(error instanceof CapReached)) throw error;
    return { body: Buffer.concat(chunks, size), truncated: true };
  }
  return { body: Buffer.concat(chunks, size), truncated: false };
}
