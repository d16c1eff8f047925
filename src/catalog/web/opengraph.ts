import { z } from 'zod';
import { httpUrl } from '../fields.ts';
import { defineTool, ToolError } from '../tool.ts';
import { readableBody, refuseErrorStatus } from './browse-pipeline.ts';
import { extractMetadata } from './opengraph/extract-metadata.ts';
import { classifyContent, refuseUnsupportedContent } from './page/content-kind.ts';
import { decodeBody } from './page/decode-text.ts';

export const opengraphTool = defineTool({
  name: 'extract_opengraph_metadata',
  title: 'Extract OpenGraph metadata',
  description:
    'Reads a page\'s OpenGraph (og:*), Twitter card, standard <meta>, JSON-LD, canonical, icon, feed and oEmbed tags and returns them with a ready-to-use link preview (title, description, image, site name, URL, favicon). ' +
    'Every URL is absolute; a preview value taken from a fallback (no og:title, so the <title>) says where it came from. ' +
    'Only public internet addresses are fetched: private, loopback and metadata addresses are refused (400, free).',
  price: '0.003',
  http: [{ method: 'GET', path: '/api/web/opengraph' }],
  input: z.object({ url: httpUrl('The page whose metadata to read: an absolute http(s) URL.') }),
  example: { url: 'https://github.com/' },
  annotations: { readOnlyHint: true, openWorldHint: true },
  timeoutMs: 20_000,
  precheck(input, ctx) {
    ctx.web.precheck(input.url);
  },
  async handler(input, ctx) {
    const response = await ctx.web.fetch(input.url, { signal: ctx.signal, deadline: ctx.deadline, accept: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5', wantsBody: readableBody });
    refuseErrorStatus(response);
    const contentType = response.headers['content-type'];
    const content = classifyContent(contentType, response.body);
    if (content.kind === 'binary') refuseUnsupportedContent(content);
    if (content.kind !== 'html' && content.kind !== 'xhtml') {
      throw new ToolError(422, 'not_html', `${response.url.toString()} is ${content.mimeType || 'not HTML'}, which has no HTML metadata to read. You were not charged.`, { contentType: content.mimeType || null });
    }
    const decoded = decodeBody(response.body, contentType);
    // The metadata's `url` is the page's own address: where the redirects ended.
    const finalUrl = response.url.toString();
    return {
      ...extractMetadata(decoded.text, finalUrl),
      requestedUrl: input.url,
      status: response.status,
      redirects: response.redirects,
      charset: decoded.charset,
      fetchedAt: ctx.now().toISOString(),
    };
  },
});
