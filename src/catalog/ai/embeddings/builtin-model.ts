// The built-in embedding model: loaded on first use (a few seconds), then kept for the process.
import { loadWinkGloveVectors, WINK_GLOVE_PACKAGE } from './glove-vectors.ts';
import { DEFAULT_SIF_OPTIONS, SifEmbedder } from './sif-embedder.ts';

/** The most frequent words kept; the rest are read as spelling-only tokens. */
export const BUILTIN_VOCABULARY = 100_000;

export const BUILTIN_MODEL = {
  name: 'sif-glove-6b-100d',
  dimensions: 100,
  method:
    `SIF-weighted mean (a = ${DEFAULT_SIF_OPTIONS.smoothing}) of GloVe 6B 100-d word vectors from the npm package ${WINK_GLOVE_PACKAGE} ` +
    `(the ${BUILTIN_VOCABULARY.toLocaleString('en-US')} most frequent words), with the mean and top ${DEFAULT_SIF_OPTIONS.removedComponents} ` +
    'principal components of the word vectors removed; L2-normalised',
} as const;

let loading: Promise<SifEmbedder> | undefined;

export function builtinEmbedder(): Promise<SifEmbedder> {
  loading ??= loadWinkGloveVectors(BUILTIN_VOCABULARY)
    .then((vectors) => new SifEmbedder(vectors))
    .catch((error: unknown) => {
      loading = undefined; // let a later call try again
      throw error;
    });
  return loading;
}
