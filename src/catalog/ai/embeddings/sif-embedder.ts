// Sentence vectors from word vectors, after two published methods:
// - "All-but-the-top" (Mu & Viswanath, ICLR 2018): subtract the mean word vector and the top
//   principal directions, which every word shares and which carry frequency, not meaning.
// - SIF weighting (Arora, Liang & Ma, ICLR 2017): a word of probability p weighs a / (a + p), so
//   frequent words ("the", "of") count little without a stop-word list.
// GloVe ships no counts, so p comes from the word's frequency rank by Zipf's law.
// Words missing from the vocabulary (names, codes, numbers) get a fixed pseudo-random direction
// derived from their spelling, so equal rare words still match.
import { createHash } from 'node:crypto';
import type { WordVectors } from './glove-vectors.ts';
import { embeddingTokens } from './word-tokens.ts';

export interface SifOptions {
  /** SIF smoothing constant `a` (the paper uses 1e-3 to 1e-4). */
  smoothing: number;
  /** How many top principal directions to remove from the word vectors. */
  removedComponents: number;
  /** How many of the most frequent words estimate those directions. */
  componentSampleWords: number;
}

export const DEFAULT_SIF_OPTIONS: SifOptions = { smoothing: 1e-3, removedComponents: 2, componentSampleWords: 10_000 };

export interface SentenceEmbedding {
  /** Unit-length (L2) vector. */
  embedding: number[];
  /** Word tokens read from the text. */
  tokens: number;
  /** Of those, how many the vocabulary knows. */
  knownTokens: number;
}

function meanRow(matrix: Float32Array, rows: number, dims: number): Float64Array {
  const mean = new Float64Array(dims);
  for (let r = 0; r < rows; r += 1) for (let d = 0; d < dims; d += 1) mean[d]! += matrix[r * dims + d]!;
  for (let d = 0; d < dims; d += 1) mean[d]! /= rows;
  return mean;
}

/** Covariance (uncentred: the mean is already removed) of the first `rows` rows. */
function covariance(matrix: Float32Array, rows: number, dims: number): Float64Array {
  const cov = new Float64Array(dims * dims);
  const row = new Float64Array(dims);
  for (let r = 0; r < rows; r += 1) {
    for (let d = 0; d < dims; d += 1) row[d] = matrix[r * dims + d]!;
    for (let i = 0; i < dims; i += 1) {
      const x = row[i]!;
      for (let j = i; j < dims; j += 1) cov[i * dims + j]! += x * row[j]!;
    }
  }
  for (let i = 0; i < dims; i += 1) for (let j = 0; j < i; j += 1) cov[i * dims + j] = cov[j * dims + i]!;
  return cov;
}

/** Top eigenvectors of a symmetric matrix by power iteration with deflation (deterministic start). */
function topEigenvectors(cov: Float64Array, dims: number, count: number): Float64Array[] {
  const found: Float64Array[] = [];
  const matrix = Float64Array.from(cov);
  for (let k = 0; k < count; k += 1) {
    let v = new Float64Array(dims).map((_, i) => 1 + i / dims);
    let eigenvalue = 0;
    for (let iteration = 0; iteration < 500; iteration += 1) {
      const next = new Float64Array(dims);
      for (let i = 0; i < dims; i += 1) {
        let sum = 0;
        for (let j = 0; j < dims; j += 1) sum += matrix[i * dims + j]! * v[j]!;
        next[i] = sum;
      }
      const norm = Math.hypot(...next);
      for (let i = 0; i < dims; i += 1) next[i]! /= norm;
      const change = next.reduce((s, x, i) => s + Math.abs(x - v[i]!), 0);
      v = next;
      eigenvalue = norm;
      if (change < 1e-10) break;
    }
    found.push(v);
    for (let i = 0; i < dims; i += 1) for (let j = 0; j < dims; j += 1) matrix[i * dims + j]! -= eigenvalue * v[i]! * v[j]!;
  }
  return found;
}

function spellingSeed(word: string): number {
  return createHash('sha256').update(word).digest().readUInt32LE(0);
}

/** A deterministic direction for an unknown word: Gaussian-like values from a seeded xorshift. */
function spellingVector(word: string, dims: number, length: number): Float64Array {
  let state = spellingSeed(word) || 1;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000;
  };
  const v = new Float64Array(dims);
  for (let d = 0; d < dims; d += 1) v[d] = next() + next() + next() - 1.5; // sum of uniforms: bell-shaped, mean 0
  const norm = Math.hypot(...v);
  for (let d = 0; d < dims; d += 1) v[d] = (v[d]! / norm) * length;
  return v;
}

export class SifEmbedder {
  readonly dimensions: number;
  private readonly rows: ReadonlyMap<string, number>;
  private readonly matrix: Float32Array;
  private readonly weights: Float32Array;
  private readonly unknownWeight: number;
  private readonly unknownLength: number;

  /** Takes ownership of `vectors`: its matrix is post-processed in place (40 MB not copied). */
  constructor(vectors: WordVectors, readonly options: SifOptions = DEFAULT_SIF_OPTIONS) {
    const dims = vectors.dimensions;
    const count = vectors.rows.size;
    this.dimensions = dims;
    this.rows = vectors.rows;
    this.matrix = vectors.matrix;

    const mean = meanRow(this.matrix, count, dims);
    for (let r = 0; r < count; r += 1) for (let d = 0; d < dims; d += 1) this.matrix[r * dims + d]! -= mean[d]!;
    const sample = Math.min(count, options.componentSampleWords);
    const components = topEigenvectors(covariance(this.matrix, sample, dims), dims, options.removedComponents);
    const lengths: number[] = [];
    for (let r = 0; r < count; r += 1) {
      const offset = r * dims;
      for (const u of components) {
        let dot = 0;
        for (let d = 0; d < dims; d += 1) dot += this.matrix[offset + d]! * u[d]!;
        for (let d = 0; d < dims; d += 1) this.matrix[offset + d]! -= dot * u[d]!;
      }
      if (r % 97 === 0) lengths.push(Math.hypot(...this.matrix.subarray(offset, offset + dims)));
    }
    lengths.sort((a, b) => a - b);
    this.unknownLength = lengths[Math.floor(lengths.length / 2)]!;

    // Zipf: the word of rank r (1-based) has probability 1 / (r · H), H the harmonic number of the vocabulary.
    const harmonic = Math.log(count) + 0.5772156649;
    this.weights = new Float32Array(count);
    for (let r = 0; r < count; r += 1) {
      const p = 1 / ((r + 1) * harmonic);
      this.weights[r] = options.smoothing / (options.smoothing + p);
    }
    const rarest = 1 / ((count + 1) * harmonic);
    this.unknownWeight = options.smoothing / (options.smoothing + rarest);
  }

  has(word: string): boolean {
    return this.rows.has(word);
  }

  embed(text: string): SentenceEmbedding {
    const dims = this.dimensions;
    const sum = new Float64Array(dims);
    const add = (word: string): void => {
      const row = this.rows.get(word);
      if (row === undefined) {
        const v = spellingVector(word, dims, this.unknownLength);
        for (let d = 0; d < dims; d += 1) sum[d]! += this.unknownWeight * v[d]!;
        return;
      }
      const weight = this.weights[row]!;
      const offset = row * dims;
      for (let d = 0; d < dims; d += 1) sum[d]! += weight * this.matrix[offset + d]!;
    };
    const tokens = embeddingTokens(text);
    let knownTokens = 0;
    for (const token of tokens) {
      // A hyphenated compound the vocabulary lacks counts as its parts.
      const words = this.rows.has(token) || !token.includes('-') ? [token] : token.split('-');
      if (words.every((word) => this.rows.has(word))) knownTokens += 1;
      for (const word of words) add(word);
    }
    const norm = Math.hypot(...sum);
    return { embedding: Array.from(sum, (x) => (norm > 0 ? x / norm : 0)), tokens: tokens.length, knownTokens };
  }
}
