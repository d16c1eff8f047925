// Client for an OpenAI-compatible `POST /v1/embeddings` API: { model, input } in,
// { data: [{ embedding }], model, usage } out. Every failure becomes a ToolError (502, or 504 on
// timeout), so the caller is never charged for it.
import { z } from 'zod';
import { ToolError } from '../../tool.ts';

export interface RemoteEmbeddingsSettings {
  endpoint: string;
  model: string;
  apiKey?: string;
  timeoutMs: number;
}

export interface RemoteEmbedding {
  model: string;
  embedding: number[];
  tokens?: number;
}

const embeddingsResponse = z.object({
  data: z.array(z.object({ embedding: z.array(z.number().refine(Number.isFinite)).min(1) })).min(1),
  model: z.string().optional(),
  usage: z.object({ prompt_tokens: z.number().int().nonnegative().optional() }).optional(),
});

export async function fetchRemoteEmbedding(settings: RemoteEmbeddingsSettings, text: string, callerSignal: AbortSignal): Promise<RemoteEmbedding> {
  const timeout = AbortSignal.timeout(settings.timeoutMs);
  const signal = AbortSignal.any([callerSignal, timeout]);
  const where = new URL(settings.endpoint).origin;
  const timedOut = () => new ToolError(504, 'embeddings_upstream_timeout', `the embeddings API at ${where} did not answer within ${settings.timeoutMs} ms`);

  let response: Response;
  let body: string;
  try {
    response = await fetch(settings.endpoint, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json',
        ...(settings.apiKey ? { authorization: `Bearer ${settings.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: settings.model, input: text, encoding_format: 'float' }),
      signal,
    });
    body = await response.text();
  } catch (error) {
    if (timeout.aborted) throw timedOut();
    if (callerSignal.aborted) throw new ToolError(504, 'embeddings_call_aborted', `the call ended before the embeddings API at ${where} answered`);
    throw new ToolError(502, 'embeddings_upstream_unreachable', `the embeddings API at ${where} could not be reached: ${(error as Error).message}`);
  }

  if (!response.ok) {
    // The upstream's body is not passed on: it may echo the operator's key or account details.
    throw new ToolError(502, 'embeddings_upstream_error', `the embeddings API at ${where} answered HTTP ${response.status}`, { upstreamStatus: response.status });
  }
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ToolError(502, 'embeddings_upstream_invalid', `the embeddings API at ${where} answered something other than JSON`);
  }
  const parsed = embeddingsResponse.safeParse(json);
  if (!parsed.success) {
    throw new ToolError(502, 'embeddings_upstream_invalid', `the embeddings API at ${where} answered without data[0].embedding as an array of numbers`);
  }
  const tokens = parsed.data.usage?.prompt_tokens;
  return {
    model: parsed.data.model ?? settings.model,
    embedding: parsed.data.data[0]!.embedding,
    ...(tokens !== undefined ? { tokens } : {}),
  };
}
