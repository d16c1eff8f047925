import { z } from 'zod';
import { httpUrl, text } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const distillTool = defineTool({
  name: 'distill_document',
  title: 'Distill a document',
  description: 'Turns a long document (HTML, Markdown or plain text) into a compact structured JSON summary (title, summary, key points, entities, numbers, dates, outline) and reports the token savings.',
  price: '0.015',
  http: [{ method: 'POST', path: '/api/distill' }],
  input: z.object({
    content: text('The document: HTML, Markdown or plain text.', 500_000),
    url: httpUrl('Where the document came from, used for its title and links.').optional(),
  }),
  example: { content: '<h1>Quarterly report</h1><p>Revenue rose 12% to $4.2 million in Q3 2026, driven by API sales in Europe.</p>' },
  annotations: { readOnlyHint: true, openWorldHint: false },
});
