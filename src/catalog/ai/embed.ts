import { z } from 'zod';
import { defineTool, ToolError, type ToolContext } from '../tool.ts';
import { isWellFormedText, WELL_FORMED_TEXT_MESSAGE } from '../utility/well-formed-text.ts';
import { EmbeddingsConfigError, readEmbeddingsConfig, type EmbeddingsConfig } from './embedding-config.ts';
import { BUILTIN_MODEL, builtinEmbedder } from './embeddings/builtin-model.ts';
import { fetchRemoteEmbedding } from './embeddings/openai-compatible.ts';
import { l2Normalised } from './embeddings/vector-math.ts';

const MAX_TEXT_CHARACTERS = 20_000;

export interface EmbeddingAnswer {
  model: string;
  provider: 'builtin' | 'openai-compatible';
  dimensions: number;
  normalization: 'l2';
  embedding: number[];
  /** Tokens the model read: word tokens for the built-in model, the API's prompt_tokens otherwise. */
  tokens?: number;
  /** Built-in model only: word tokens found in its vocabulary (the others count by spelling only). */
  knownTokens?: number;
  method?: string;
}

function configuration(): EmbeddingsConfig {
  try {
    return readEmbeddingsConfig();
  } catch (error) {
    if (error instanceof EmbeddingsConfigError) throw new ToolError(503, 'embeddings_misconfigured', error.message);
    throw error;
  }
}

async function embedWithBuiltin(text: string): Promise<EmbeddingAnswer> {
  const embedded = (await builtinEmbedder()).embed(text);
  return {
    model: BUILTIN_MODEL.name,
    provider: 'builtin',
    dimensions: embedded.embedding.length,
    normalization: 'l2',
    embedding: embedded.embedding,
    tokens: embedded.tokens,
    knownTokens: embedded.knownTokens,
    method: BUILTIN_MODEL.method,
  };
}

async function embedWithRemote(config: Extract<EmbeddingsConfig, { kind: 'openai-compatible' }>, text: string, ctx: ToolContext): Promise<EmbeddingAnswer> {
  const remote = await fetchRemoteEmbedding(config, text, ctx.signal);
  const embedding = l2Normalised(remote.embedding);
  if (!embedding) throw new ToolError(502, 'embeddings_upstream_invalid', 'the embeddings API answered a zero vector');
  return {
    model: remote.model,
    provider: 'openai-compatible',
    dimensions: embedding.length,
    normalization: 'l2',
    embedding,
    ...(remote.tokens !== undefined ? { tokens: remote.tokens } : {}),
  };
}

export const embedTool = defineTool({
  name: 'generate_embeddings',
  title: 'Generate text embeddings',
  description:
    'Returns a dense, normalised vector embedding of a text for semantic search and clustering, with the model name and dimensions. ' +
    `By default a built-in English model (${BUILTIN_MODEL.name}: ${BUILTIN_MODEL.dimensions} dimensions, SIF-weighted GloVe word vectors) runs locally; ` +
    'the operator may configure a stronger OpenAI-compatible model instead. Vectors are L2-normalised, so the dot product of two is their cosine similarity.',
  price: '0.008',
  http: [{ method: 'POST', path: '/api/ai/embed' }],
  input: z.object({
    text: z
      .string()
      .min(1)
      .max(MAX_TEXT_CHARACTERS)
      .refine((text) => /\S/u.test(text), { message: 'expected some text, not only whitespace' })
      .refine(isWellFormedText, { message: WELL_FORMED_TEXT_MESSAGE })
      .describe('The text to embed.'),
  }),
  example: { text: 'Agents pay for each tool call in USDC.' },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async handler(input, ctx) {
    const config = configuration();
    return config.kind === 'builtin' ? embedWithBuiltin(input.text) : embedWithRemote(config, input.text, ctx);
  },
});
