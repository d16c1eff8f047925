import { z } from 'zod';
import { httpUrl } from '../fields.ts';
import { defineTool } from '../tool.ts';
import { isWellFormedText, WELL_FORMED_TEXT_MESSAGE } from '../utility/well-formed-text.ts';
import { distill, MAX_OUTPUT_TOKENS, OUTPUT_SHARE } from './distill/distill-document.ts';
import { TOKENIZER } from './distill/token-count.ts';

const MAX_CONTENT_CHARACTERS = 500_000;

export const distillTool = defineTool({
  name: 'distill_document',
  title: 'Distill a document',
  description:
    'Turns a long document (HTML, Markdown or plain text) into a compact structured JSON summary (title, summary, key points, entities, numbers, dates, outline) and reports the token savings. ' +
    `Local and deterministic (no language model): the main content of HTML is found with Mozilla Readability, sentences are picked by centroid scoring, and the answer fits a budget of about ${Math.round(OUTPUT_SHARE * 100)}% of the document's tokens (at most ${MAX_OUTPUT_TOKENS}), counted with the ${TOKENIZER.encoding} tokenizer. ` +
    'Pays off on long documents (over about 1,000 tokens): on short ones the structure can cost more tokens than the text.',
  price: '0.015',
  http: [{ method: 'POST', path: '/api/distill' }],
  input: z.object({
    content: z
      .string()
      .min(1)
      .max(MAX_CONTENT_CHARACTERS)
      .refine((content) => /[\p{L}\p{N}]/u.test(content), { message: 'expected a document with some text (letters or digits)' })
      .refine(isWellFormedText, { message: WELL_FORMED_TEXT_MESSAGE })
      .describe('The document: HTML, Markdown or plain text.'),
    url: httpUrl('Where the document came from: echoed in the answer, and its last path segment is the title of a document that has none.').optional(),
  }),
  example: { content: '<h1>Quarterly report</h1><p>Revenue rose 12% to $4.2 million in Q3 2026, driven by API sales in Europe.</p>' },
  annotations: { readOnlyHint: true, openWorldHint: false, idempotentHint: true },
  async handler(input, ctx) {
    return distill(input.content, input.url, ctx.signal);
  },
});
