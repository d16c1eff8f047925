// A tool's input from the command line: --input '{json}' first, then name=value words, each value
// read as its input schema's type (number, integer, boolean, array as JSON or comma-separated,
// object as JSON). A name the tool does not take is an error that lists the names it does.
import type { GatewayTool, JsonPropertySchema } from '../client/gateway-tools.ts';
import { UsageError } from './args.ts';

function typesOf(schema: JsonPropertySchema | undefined): string[] {
  if (!schema) return [];
  if (Array.isArray(schema.type)) return schema.type;
  if (typeof schema.type === 'string') return [schema.type];
  return (schema.anyOf ?? []).flatMap(typesOf);
}

function readValue(name: string, text: string, schema: JsonPropertySchema | undefined): unknown {
  const types = typesOf(schema);
  if (types.length === 0 || types.includes('string')) return text;
  for (const type of types) {
    if ((type === 'number' || type === 'integer') && text.trim() !== '' && Number.isFinite(Number(text))) {
      const value = Number(text);
      if (type === 'integer' && !Number.isInteger(value)) continue;
      return value;
    }
    if (type === 'boolean' && (text === 'true' || text === 'false')) return text === 'true';
    if (type === 'null' && text === 'null') return null;
    if (type === 'array') {
      if (text.trim().startsWith('[')) return parseJson(name, text);
      return text === '' ? [] : text.split(',').map((part) => readValue(name, part.trim(), schema?.items));
    }
    if (type === 'object') return parseJson(name, text);
  }
  throw new UsageError(`${name}=${text}: expected ${types.join(' or ')}`);
}

function parseJson(name: string, text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(`${name} must be JSON (got ${text})`);
  }
}

export function toolInput(tool: GatewayTool, words: readonly string[], inputJson: string | undefined): Record<string, unknown> {
  const properties = tool.inputSchema.properties ?? {};
  let input: Record<string, unknown> = {};
  if (inputJson !== undefined) {
    const parsed = parseJson('--input', inputJson);
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) throw new UsageError('--input must be a JSON object, e.g. --input \'{"text":"hello"}\'');
    input = { ...(parsed as Record<string, unknown>) };
  }
  for (const word of words) {
    const eq = word.indexOf('=');
    if (eq <= 0) throw new UsageError(`expected name=value, got ${JSON.stringify(word)}; ${tool.name} takes: ${Object.keys(properties).join(', ') || 'no input'}`);
    const name = word.slice(0, eq);
    if (!(name in properties)) throw new UsageError(`${tool.name} takes no input named ${JSON.stringify(name)}; it takes: ${Object.keys(properties).join(', ') || 'no input'}`);
    input[name] = readValue(name, word.slice(eq + 1), properties[name]);
  }
  return input;
}
