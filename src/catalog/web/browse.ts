import { z } from 'zod';
import { httpUrl } from '../fields.ts';
import { defineTool } from '../tool.ts';
import { browsePage } from './browse-pipeline.ts';

export const browseTool = defineTool({
  name: 'browse_web_stealth',
  title: 'Browse a web page',
  description:
    'Fetches a public web page with a real browser\'s headers and returns its main content as clean Markdown (headings, lists, tables, code, absolute links) with its metadata: final URL, status, title, byline, site name, language, description, published time, canonical URL, word count and links. ' +
    'Pages that only show their text after JavaScript runs are rendered in headless Chromium (the answer says so); PDFs and plain text are read too. ' +
    'Only public internet addresses are fetched: private, loopback and metadata addresses are refused (400, free), on every redirect too.',
  price: '0.005',
  http: [{ method: 'GET', path: '/api/browse' }],
  input: z.object({ url: httpUrl('The page to read: an absolute http(s) URL on the public internet.') }),
  example: { url: 'https://example.com/' },
  annotations: { readOnlyHint: true, openWorldHint: true },
  timeoutMs: 30_000,
  precheck(input, ctx) {
    ctx.web.precheck(input.url);
  },
  async handler(input, ctx) {
    return browsePage(input.url, ctx);
  },
});
