import { z } from 'zod';
import { httpUrl } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const opengraphTool = defineTool({
  name: 'extract_opengraph_metadata',
  title: 'Extract OpenGraph metadata',
  description: 'Reads a page\'s OpenGraph, Twitter card and HTML metadata and returns a link preview (title, description, image, site name, canonical URL).',
  price: '0.003',
  http: [{ method: 'GET', path: '/api/web/opengraph' }],
  input: z.object({ url: httpUrl('The page whose metadata to read: an absolute http(s) URL.') }),
  example: { url: 'https://github.com/' },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
