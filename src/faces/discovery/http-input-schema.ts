// The JSON Schema (2020-12) of an HTTP endpoint's input, in the endpoint's own parameter names.
// OpenAPI, the bazaar extension and llms-full.txt all read it from here.
import { z } from 'zod';
import type { HttpRoute, Tool } from '../../catalog/tool.ts';

export interface JsonSchemaObject {
  type: 'object';
  properties: Record<string, Record<string, unknown>>;
  required?: string[];
  [keyword: string]: unknown;
}

export function routeInput(tool: Tool, route: HttpRoute) {
  return route.input ?? tool.input;
}

export function routeExample(tool: Tool, route: HttpRoute): Readonly<Record<string, unknown>> {
  return route.input ? (route.example ?? {}) : tool.example;
}

export function httpInputSchema(tool: Tool, route: HttpRoute): JsonSchemaObject {
  const schema = z.toJSONSchema(routeInput(tool, route), { io: 'input', unrepresentable: 'any' }) as JsonSchemaObject;
  const rename = (name: string) => route.rename?.[name] ?? name;
  const { $schema: _dialect, ...rest } = schema;
  return {
    ...rest,
    type: 'object',
    properties: Object.fromEntries(Object.entries(schema.properties ?? {}).map(([name, property]) => [rename(name), property])),
    ...(schema.required ? { required: schema.required.map(rename) } : {}),
  };
}

/** The example in HTTP names. */
export function httpExample(tool: Tool, route: HttpRoute): Record<string, unknown> {
  return Object.fromEntries(Object.entries(routeExample(tool, route)).map(([name, value]) => [route.rename?.[name] ?? name, value]));
}
