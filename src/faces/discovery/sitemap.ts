// GET /sitemap.xml: the public documents and pages, as absolute URLs under the public base URL.
import { freeEndpoints } from './openapi.ts';

const escapeXml = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');

export function sitemapXml(publicBaseUrl: string): string {
  const urls = freeEndpoints
    .filter((endpoint) => endpoint.path !== '/health')
    .map((endpoint) => `  <url><loc>${escapeXml(`${publicBaseUrl}${endpoint.path}`)}</loc></url>`);
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls.join('\n')}\n</urlset>\n`;
}
