// GET /openapi.json: the OpenAPI 3.1 description of every endpoint, derived from the catalogue.
import type { PaymentRequirements } from '@x402/core/types';
import type { HttpRoute, Tool } from '../../catalog/tool.ts';
import { httpInterfaceVersion } from '../../version.ts';
import { httpExample, httpInputSchema } from './http-input-schema.ts';

export interface DocumentContext {
  catalog: readonly Tool[];
  publicBaseUrl: string;
  requirements: (price: string) => PaymentRequirements[];
}

export const serviceDescription =
  'toolgate sells tools to autonomous agents one call at a time: web, search, documents, crypto analytics, ' +
  'embeddings, math, QR codes, signatures, unit conversion, weather, time zones, data transforms and more. ' +
  'Each call is paid in USDC on Base with x402 v2 (EIP-3009 TransferWithAuthorization): no account, no API key. ' +
  'An unpaid call answers 402 with the price in the PAYMENT-REQUIRED header; retry with PAYMENT-SIGNATURE.';

/** Endpoints that cost nothing, with what they return. */
export const freeEndpoints: readonly { path: string; summary: string; contentType: string }[] = [
  { path: '/', summary: 'Landing page: what the service is and links to its documents', contentType: 'text/html' },
  { path: '/health', summary: 'Health: network, chain and ledger reachability, version', contentType: 'application/json' },
  { path: '/openapi.json', summary: 'This OpenAPI 3.1 description', contentType: 'application/json' },
  { path: '/llms-full.txt', summary: 'Plain-text guide for language models: how to pay, every tool with examples', contentType: 'text/plain' },
  { path: '/sitemap.xml', summary: 'Sitemap of the public documents and pages', contentType: 'application/xml' },
  { path: '/.well-known/ai-plugin.json', summary: 'AI plugin manifest', contentType: 'application/json' },
  { path: '/.well-known/x402', summary: 'x402 resource list: every paid resource with its payment requirements', contentType: 'application/json' },
  { path: '/.well-known/mcp.json', summary: 'MCP server description: transports, tools and prices', contentType: 'application/json' },
  { path: '/dashboard', summary: 'Merchant dashboard', contentType: 'text/html' },
];

const errorSchema = {
  type: 'object',
  required: ['error', 'message', 'charged'],
  properties: {
    error: { type: 'string', description: 'Machine-readable code, e.g. invalid_input, tool_error, tool_timeout' },
    message: { type: 'string', description: 'What went wrong and what to do' },
    issues: {
      type: 'array',
      description: 'For invalid_input: one entry per bad field',
      items: { type: 'object', required: ['field', 'message'], properties: { field: { type: 'string' }, message: { type: 'string' } } },
    },
    charged: { type: 'boolean', const: false, description: 'Always false: failed calls are never charged' },
  },
};

const components = {
  schemas: {
    Error: errorSchema,
    PaymentRequirements: {
      type: 'object',
      required: ['scheme', 'network', 'amount', 'asset', 'payTo', 'maxTimeoutSeconds', 'extra'],
      properties: {
        scheme: { type: 'string', const: 'exact' },
        network: { type: 'string', description: 'CAIP-2 network id, e.g. eip155:8453' },
        amount: { type: 'string', pattern: '^\\d+$', description: 'Price in atomic USDC units (6 decimals)' },
        asset: { type: 'string', description: 'USDC contract address' },
        payTo: { type: 'string', description: 'Receiving address' },
        maxTimeoutSeconds: { type: 'integer' },
        extra: {
          type: 'object',
          required: ['name', 'version'],
          properties: { name: { type: 'string', description: 'EIP-712 domain name of USDC' }, version: { type: 'string' } },
        },
      },
    },
    PaymentRequired: {
      type: 'object',
      required: ['x402Version', 'resource', 'accepts'],
      properties: {
        x402Version: { type: 'integer', const: 2 },
        error: { type: 'string', description: 'Why payment is required or was refused ("code: explanation")' },
        resource: {
          type: 'object',
          required: ['url'],
          properties: { url: { type: 'string' }, description: { type: 'string' }, mimeType: { type: 'string' } },
        },
        accepts: { type: 'array', items: { $ref: '#/components/schemas/PaymentRequirements' } },
        extensions: { type: 'object', description: 'x402 extensions, including bazaar (how to call this resource)' },
      },
    },
    SettleResponse: {
      type: 'object',
      required: ['success', 'transaction', 'network'],
      properties: {
        success: { type: 'boolean' },
        transaction: { type: 'string', description: 'Settlement transaction hash' },
        network: { type: 'string' },
        payer: { type: 'string' },
        errorReason: { type: 'string' },
      },
    },
  },
  securitySchemes: {
    x402: {
      type: 'apiKey',
      in: 'header',
      name: 'PAYMENT-SIGNATURE',
      description: 'x402 v2 PaymentPayload, base64-encoded JSON: a signed EIP-3009 TransferWithAuthorization for the exact price',
    },
  },
  headers: {
    PaymentRequired: {
      description: 'The PaymentRequired object as base64-encoded JSON (x402 v2)',
      schema: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/json', contentSchema: { $ref: '#/components/schemas/PaymentRequired' } },
    },
    PaymentResponse: {
      description: 'The settlement (SettleResponse) as base64-encoded JSON (x402 v2)',
      schema: { type: 'string', contentEncoding: 'base64', contentMediaType: 'application/json', contentSchema: { $ref: '#/components/schemas/SettleResponse' } },
    },
  },
};

const jsonError = (description: string) => ({
  description,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

function operationId(tool: Tool, route: HttpRoute): string {
  if (tool.http.length === 1) return tool.name;
  return `${tool.name}_${route.path.split('/').pop() ?? route.method.toLowerCase()}`;
}

function toolOperation(tool: Tool, route: HttpRoute, requirements: PaymentRequirements) {
  const schema = httpInputSchema(tool, route);
  const required = new Set(schema.required ?? []);
  const example = httpExample(tool, route);
  const input =
    route.method === 'GET'
      ? {
          parameters: Object.entries(schema.properties).map(([name, property]) => {
            const { description, ...propertySchema } = property;
            return {
              name,
              in: 'query',
              required: required.has(name),
              ...(typeof description === 'string' ? { description } : {}),
              schema: propertySchema,
              ...(name in example ? { example: example[name] } : {}),
            };
          }),
        }
      : {
          requestBody: {
            required: true,
            content: { 'application/json': { schema, example } },
          },
        };
  return {
    operationId: operationId(tool, route),
    summary: route.summary ? `${tool.title}: ${route.summary}` : tool.title,
    description: `${tool.description} Price: ${tool.price} USDC per call.`,
    tags: [tool.annotations.openWorldHint ? 'upstream tools' : 'local tools'],
    security: [{ x402: [] }],
    ...input,
    responses: {
      '200': {
        description: 'The tool ran and the payment settled',
        headers: { 'PAYMENT-RESPONSE': { $ref: '#/components/headers/PaymentResponse' } },
        content: { 'application/json': { schema: { type: 'object', description: route.summary ?? tool.description } } },
      },
      '400': {
        description: 'Invalid input (names each field; nothing was asked for or charged), or a malformed payment (`invalid_payload`: not an x402 v2 exact payment; the PaymentRequired comes back to start over)',
        headers: { 'PAYMENT-REQUIRED': { $ref: '#/components/headers/PaymentRequired' } },
        content: { 'application/json': { schema: { oneOf: [{ $ref: '#/components/schemas/Error' }, { $ref: '#/components/schemas/PaymentRequired' }] } } },
      },
      '402': {
        description: 'Payment required, refused, or its settlement failed; the result is withheld',
        headers: {
          'PAYMENT-REQUIRED': { $ref: '#/components/headers/PaymentRequired' },
          'PAYMENT-RESPONSE': { $ref: '#/components/headers/PaymentResponse' },
        },
        content: { 'application/json': { schema: { $ref: '#/components/schemas/PaymentRequired' } } },
      },
      '501': jsonError('The tool is declared but not built yet; nothing was charged'),
      '502': jsonError('An upstream provider failed; nothing was charged'),
      '503': jsonError('The chain, facilitator or ledger is unreachable; nothing was charged'),
      '504': jsonError('The tool timed out; nothing was charged'),
    },
    'x-payment-info': {
      price: tool.price,
      currency: 'USDC',
      amount: requirements.amount,
      asset: requirements.asset,
      network: requirements.network,
      payTo: requirements.payTo,
      scheme: requirements.scheme,
      maxTimeoutSeconds: requirements.maxTimeoutSeconds,
      eip712: requirements.extra,
    },
    'x-mcp-tool': tool.name,
  };
}

export function openApiDocument(context: DocumentContext) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const tool of context.catalog) {
    const [requirements] = context.requirements(tool.price);
    if (!requirements) throw new Error(`no payment requirements for ${tool.name}`);
    for (const route of tool.http) {
      paths[route.path] = { ...paths[route.path], [route.method.toLowerCase()]: toolOperation(tool, route, requirements) };
    }
  }
  for (const endpoint of freeEndpoints) {
    paths[endpoint.path] = {
      get: {
        operationId: `free_${endpoint.path.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '') || 'landing'}`,
        summary: endpoint.summary,
        tags: ['free'],
        security: [],
        responses: { '200': { description: endpoint.summary, content: { [endpoint.contentType]: { schema: {} } } } },
      },
    };
  }
  paths['/mcp'] = {
    post: {
      operationId: 'mcp',
      summary: 'MCP (JSON-RPC 2.0 over Streamable HTTP): the same tools; payment in params._meta["x402/payment"]',
      tags: ['mcp'],
      security: [],
      requestBody: { required: true, content: { 'application/json': { schema: { type: 'object' } } } },
      responses: { '200': { description: 'JSON-RPC response', content: { 'application/json': { schema: { type: 'object' } } } } },
    },
  };
  return {
    openapi: '3.1.0',
    info: { title: 'toolgate', version: httpInterfaceVersion, description: serviceDescription, license: { name: 'Proprietary: terms of use', url: `${context.publicBaseUrl}/legal` } },
    servers: [{ url: context.publicBaseUrl }],
    tags: [
      { name: 'local tools', description: 'Tools computed by the gateway itself' },
      { name: 'upstream tools', description: 'Tools that reach the outside world' },
      { name: 'free', description: 'Documents and pages that cost nothing' },
      { name: 'mcp', description: 'The Model Context Protocol face' },
    ],
    paths,
    components,
  };
}
