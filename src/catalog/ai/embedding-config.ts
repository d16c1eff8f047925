// Which embedding model generate_embeddings uses, read from the environment at call time.
// Unset: the built-in model (GloVe word vectors shipped in npm, no network).
// TOOLGATE_EMBEDDINGS_URL set: an OpenAI-compatible embeddings API (OpenAI, Azure-style proxies,
// Ollama, vLLM, LM Studio, text-embeddings-inference...).
import { isHttpUrl } from '../fields.ts';

export const EMBEDDINGS_ENV = {
  url: 'TOOLGATE_EMBEDDINGS_URL',
  model: 'TOOLGATE_EMBEDDINGS_MODEL',
  apiKey: 'TOOLGATE_EMBEDDINGS_API_KEY',
  timeoutMs: 'TOOLGATE_EMBEDDINGS_TIMEOUT_MS',
} as const;

export const DEFAULT_REMOTE_MODEL = 'text-embedding-3-small';
export const DEFAULT_REMOTE_TIMEOUT_MS = 10_000;

export type EmbeddingsConfig =
  | { kind: 'builtin' }
  | { kind: 'openai-compatible'; endpoint: string; model: string; apiKey?: string; timeoutMs: number };

export class EmbeddingsConfigError extends Error {
  override name = 'EmbeddingsConfigError';
}

/** `<base>/embeddings`, unless the URL already names the embeddings endpoint. */
export function embeddingsEndpoint(url: string): string {
  const parsed = new URL(url);
  if (!/\/embeddings\/?$/.test(parsed.pathname)) parsed.pathname = `${parsed.pathname.replace(/\/+$/, '')}/embeddings`;
  return parsed.toString();
}

export function readEmbeddingsConfig(env: NodeJS.ProcessEnv = process.env): EmbeddingsConfig {
  const url = env[EMBEDDINGS_ENV.url]?.trim();
  if (!url) return { kind: 'builtin' };
  if (!isHttpUrl(url)) throw new EmbeddingsConfigError(`${EMBEDDINGS_ENV.url} must be an absolute http(s) URL`);

  const rawTimeout = env[EMBEDDINGS_ENV.timeoutMs]?.trim();
  const timeoutMs = rawTimeout ? Number(rawTimeout) : DEFAULT_REMOTE_TIMEOUT_MS;
  if (!Number.isInteger(timeoutMs) || timeoutMs < 100 || timeoutMs > 120_000) {
    throw new EmbeddingsConfigError(`${EMBEDDINGS_ENV.timeoutMs} must be an integer number of milliseconds from 100 to 120000`);
  }
  const apiKey = env[EMBEDDINGS_ENV.apiKey]?.trim();
  return {
    kind: 'openai-compatible',
    endpoint: embeddingsEndpoint(url),
    model: env[EMBEDDINGS_ENV.model]?.trim() || DEFAULT_REMOTE_MODEL,
    ...(apiKey ? { apiKey } : {}),
    timeoutMs,
  };
}
