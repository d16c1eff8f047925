// The x402 bazaar discovery extension carried by every 402: how to call the resource (input and
// its JSON Schema), built with the official @x402/extensions helper from the catalogue.
import { declareDiscoveryExtension } from '@x402/extensions/bazaar';
import type { HttpRoute, Tool } from '../../catalog/tool.ts';
import { z } from 'zod';
import { httpExample, httpInputSchema } from './http-input-schema.ts';

export type Extensions = Record<string, unknown>;

export function httpBazaar(tool: Tool, route: HttpRoute): Extensions {
  const schema = httpInputSchema(tool, route);
  const inputSchema = { properties: schema.properties, ...(schema.required ? { required: schema.required } : {}) };
  const input = httpExample(tool, route);
  const declared =
    route.method === 'GET'
      ? declareDiscoveryExtension({ input, inputSchema })
      : declareDiscoveryExtension({ input, inputSchema, bodyType: 'json' });
  const bazaar = declared.bazaar;
  if (!bazaar) throw new Error(`no bazaar extension declared for ${route.path}`);
  // The helper leaves `method` to a resource server's enrichment step, which this gateway does itself;
  // no output is declared: the catalogue has no output schemas yet, and an empty example says nothing.
  return { bazaar: { info: { input: { ...bazaar.info.input, method: route.method } }, schema: bazaar.schema } };
}

export function mcpBazaar(tool: Tool): Extensions {
  const inputSchema = z.toJSONSchema(tool.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
  return declareDiscoveryExtension({
    toolName: tool.name,
    description: tool.description,
    transport: 'streamable-http',
    inputSchema,
    example: { ...tool.example },
  });
}
