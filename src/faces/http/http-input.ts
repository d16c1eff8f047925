// From an HTTP request to a tool's raw input: HTTP parameter names to MCP names, and query
// strings to the numbers and booleans the schema expects. Validation itself stays in the schema.
import { z } from 'zod';
import type { HttpRoute, ToolInput } from '../../catalog/tool.ts';

const strictNumber = /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/;

function unwrap(schema: z.ZodType): z.ZodType {
  let current: z.ZodType = schema;
  while (current instanceof z.ZodDefault || current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
    current = current.unwrap() as z.ZodType;
  }
  return current;
}

/** Query values are strings: turn them into what the field expects, only where that is unambiguous. */
function coerceQueryValue(field: z.ZodType | undefined, value: unknown): unknown {
  if (typeof value !== 'string' || !field) return value;
  const inner = unwrap(field);
  if (inner instanceof z.ZodNumber && strictNumber.test(value.trim())) return Number(value.trim());
  if (inner instanceof z.ZodBoolean && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

export function httpInput(route: HttpRoute, input: ToolInput, source: unknown, fromQuery: boolean): unknown {
  if (typeof source !== 'object' || source === null || Array.isArray(source)) return source;
  const values = source as Record<string, unknown>;
  const rename = route.rename ?? {};
  const renamedHttpNames = new Set(Object.values(rename));
  const raw: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) {
    if (!renamedHttpNames.has(key)) raw[key] = value;
  }
  for (const [mcpName, httpName] of Object.entries(rename)) {
    delete raw[mcpName];
    if (httpName in values) raw[mcpName] = values[httpName];
  }
  if (!fromQuery) return raw;
  const shape = input.shape as Record<string, z.ZodType>;
  return Object.fromEntries(Object.entries(raw).map(([key, value]) => [key, coerceQueryValue(shape[key], value)]));
}

/** An issue's field in the caller's own vocabulary: the HTTP name where the spec's differ. */
export function httpFieldName(route: HttpRoute, field: string): string {
  const [head, ...rest] = field.split('.');
  const renamed = (head && route.rename?.[head]) ?? head;
  return [renamed, ...rest].join('.');
}
