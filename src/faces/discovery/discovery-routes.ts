// The machine-discovery documents, generated once at start from the catalogue.
import type { FastifyInstance } from 'fastify';
import { aiPluginManifest } from './ai-plugin.ts';
import { llmsFullText } from './llms-full.ts';
import type { DocumentContext } from './openapi.ts';
import { openApiDocument } from './openapi.ts';
import { sitemapXml } from './sitemap.ts';
import { x402ResourceList } from './x402-resources.ts';

const logoSvg =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><rect width="64" height="64" rx="14" fill="#0b5cff"/>' +
  '<path d="M18 22h28v6H35v20h-6V28H18z" fill="#fff"/></svg>';

const legalText = [
  'toolgate: terms of use',
  '',
  'Each tool call is sold on its own, at the price its 402 answer states, paid in USDC through x402.',
  'A call is charged only when its result is delivered: invalid input, tools that fail, upstream failures and',
  'settlements that do not go through are never charged. An authorization is used at most once.',
  'Results are provided as they are, without warranty; market data and signals are not financial advice.',
  'Upstream data keeps its providers\' licences and attributions, named in each response.',
  '',
].join('\n');

export function registerDiscoveryRoutes(app: FastifyInstance, context: DocumentContext): void {
  const openapi = JSON.stringify(openApiDocument(context));
  const llms = llmsFullText(context);
  const sitemap = sitemapXml(context.publicBaseUrl);
  const plugin = JSON.stringify(aiPluginManifest(context));
  const resources = JSON.stringify(x402ResourceList(context, Math.floor(Date.now() / 1000)));
  const json = 'application/json; charset=utf-8';

  app.get('/openapi.json', async (_request, reply) => reply.type(json).send(openapi));
  app.get('/llms-full.txt', async (_request, reply) => reply.type('text/plain; charset=utf-8').send(llms));
  app.get('/sitemap.xml', async (_request, reply) => reply.type('application/xml; charset=utf-8').send(sitemap));
  app.get('/.well-known/ai-plugin.json', async (_request, reply) => reply.type(json).send(plugin));
  app.get('/.well-known/x402', async (_request, reply) => reply.type(json).send(resources));
  app.get('/legal', async (_request, reply) => reply.type('text/plain; charset=utf-8').send(legalText));
  app.get('/logo.svg', async (_request, reply) => reply.type('image/svg+xml').send(logoSvg));
}
