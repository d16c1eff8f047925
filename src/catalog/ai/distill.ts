import { z } from 'zod';
import { httpUrl } from '../fields.ts';
import { defineTool } from '../tool.ts';
import { browsePage } from '../web/browse-pipeline.ts';
import { isWellFormedText, WELL_FORMED_TEXT_MESSAGE } from '../utility/well-formed-text.ts';
import { BUDGETS, DETAILS, MAX_OUTPUT_TOKENS, MIN_MAX_TOKENS, shareFor } from './distill/budget.ts';
import { distill } from './distill/distill-document.ts';
import { TOKENIZER } from './distill/token-count.ts';

const MAX_CONTENT_CHARACTERS = 500_000;

export const distillTool = defineTool({
  name: 'distill_document',
  title: 'Distill a document',
  description:
    'Turns a long document (HTML, Markdown, a man page in troff or rendered, or plain text) into a compact structured JSON summary and reports the token savings: title, the lead sentence and summary, outline, for a changelog its newest releases with version, date and entries, facts (commands, options with their meaning, limits and defaults, versions, dates, each with its sentence), key points, entities, keywords, numbers, dates. ' +
    `Local and deterministic (no language model): structure first (lead, headings, releases, definitions), then the most informative sentences; the answer fits a budget of about ${Math.round(BUDGETS.normal.share * 100)}% of the document's text tokens by default, up to ${Math.round(shareFor(BUDGETS.normal, 1) * 100)}% for a short one (detail "brief" about ${Math.round(BUDGETS.brief.share * 100)}%, "full" about ${Math.round(BUDGETS.full.share * 100)}%, or maxTokens), counted with the ${TOKENIZER.encoding} tokenizer. ` +
    'Pays off on long documents (over about 1,000 tokens): on short ones the structure can cost more tokens than the text. ' +
    'Give the document as `content`, or give only `url` and the page is fetched and read first, as browse_web_stealth reads it (public addresses only; a JavaScript-only page is rendered).',
  price: '0.015',
  http: [{ method: 'POST', path: '/api/distill' }],
  input: z
    .object({
      content: z
        .string()
        .min(1)
        .max(MAX_CONTENT_CHARACTERS)
        .refine((content) => /[\p{L}\p{N}]/u.test(content), { message: 'expected a document with some text (letters or digits)' })
        .refine(isWellFormedText, { message: WELL_FORMED_TEXT_MESSAGE })
        .optional()
        .describe('The document: HTML, Markdown or plain text. Required unless url is given.'),
      url: httpUrl(
        'Where the document is. Without content, the page at this URL is fetched and distilled; with content, it only labels the document (echoed, and its last path segment titles a document that has none).',
      ).optional(),
      detail: z
        .enum(DETAILS)
        .optional()
        .describe(
          `How much of the document to keep: "brief" (about ${Math.round(BUDGETS.brief.share * 100)}% of its text tokens, ${BUDGETS.brief.min} to ${BUDGETS.brief.max}), "normal" (the default, about ${Math.round(BUDGETS.normal.share * 100)}%, up to ${Math.round(shareFor(BUDGETS.normal, 1) * 100)}% for a short document, ${BUDGETS.normal.min} to ${BUDGETS.normal.max}) or "full" (about ${Math.round(BUDGETS.full.share * 100)}%, ${BUDGETS.full.min} to ${BUDGETS.full.max}).`,
        ),
      maxTokens: z
        .number()
        .int()
        .min(MIN_MAX_TOKENS)
        .max(MAX_OUTPUT_TOKENS)
        .optional()
        .describe(`Most tokens the answer (without its tokens field) may take, ${MIN_MAX_TOKENS} to ${MAX_OUTPUT_TOKENS}. Alone it sets the budget; with detail it caps that detail's budget. Never more than the document's own text.`),
    })
    .refine((input) => input.content !== undefined || input.url !== undefined, {
      path: ['content'],
      message: 'content is required unless url is given (expected the document, or the URL to fetch it from)',
    }),
  example: { content: '<h1>Quarterly report</h1><p>Revenue rose 12% to $4.2 million in Q3 2026, driven by API sales in Europe.</p>' },
  annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
  timeoutMs: 30_000,
  precheck(input, ctx) {
    if (input.content === undefined && input.url !== undefined) ctx.web.precheck(input.url);
  },
  async handler(input, ctx) {
    // The schema lets through content, url, or both.
    const request = { ...(input.detail ? { detail: input.detail } : {}), ...(input.maxTokens !== undefined ? { maxTokens: input.maxTokens } : {}) };
    if (input.content !== undefined || input.url === undefined) return distill(input.content ?? '', input.url, request, ctx.signal);
    const page = await browsePage(input.url, ctx);
    // Readability takes the title out of the content; the page's own title leads the document again.
    const document = page.title && !page.markdown.trimStart().startsWith('# ') ? `# ${page.title}\n\n${page.markdown}` : page.markdown;
    const distillation = await distill(document, page.finalUrl, request, ctx.signal);
    return {
      ...distillation,
      fetched: { url: page.url, finalUrl: page.finalUrl, status: page.status, contentType: page.contentType, rendered: page.rendered, truncated: page.truncated, fetchedAt: page.fetchedAt },
    };
  },
});
