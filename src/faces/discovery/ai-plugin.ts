// GET /.well-known/ai-plugin.json: the AI plugin manifest.
import { serviceDescription } from './openapi.ts';
import type { DocumentContext } from './openapi.ts';

export function aiPluginManifest(context: DocumentContext) {
  return {
    schema_version: 'v1',
    name_for_human: 'toolgate',
    name_for_model: 'toolgate',
    description_for_human: 'Pay-per-call tools for AI agents: web, search, crypto, math, documents and more, paid in USDC per call.',
    description_for_model:
      `${serviceDescription} ${context.catalog.length} tools; see the OpenAPI document for each endpoint, its parameters and its price. ` +
      'Validate inputs before paying: a 400 is free. Never pay twice for one call: a 402 after a paid retry states why.',
    auth: { type: 'none' },
    api: { type: 'openapi', url: `${context.publicBaseUrl}/openapi.json`, is_user_authenticated: false },
    logo_url: `${context.publicBaseUrl}/logo.svg`,
    contact_email: 'support@toolgate.invalid',
    legal_info_url: `${context.publicBaseUrl}/legal`,
    mcp_url: `${context.publicBaseUrl}/mcp`,
  };
}
