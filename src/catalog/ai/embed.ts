import { z } from 'zod';
import { text } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const embedTool = defineTool({
  name: 'generate_embeddings',
  title: 'Generate text embeddings',
  description: 'Returns a dense, normalised vector embedding of a text for semantic search and clustering, with the model name and dimensions.',
  price: '0.008',
  http: [{ method: 'POST', path: '/api/ai/embed' }],
  input: z.object({ text: text('The text to embed.', 20_000) }),
  example: { text: 'Agents pay for each tool call in USDC.' },
  annotations: { readOnlyHint: true, openWorldHint: false },
});
