// toolgate tools: the gateway's tools, prices and inputs, from its discovery document.
import { gatewayAddress } from '../../client/gateway-address.ts';
import { readGatewayTools, type GatewayTool, type JsonPropertySchema } from '../../client/gateway-tools.ts';
import { networkName } from '../../client/explorer.ts';
import type { ParsedArgs } from '../args.ts';
import { EXIT, json, out } from '../output.ts';

function typeOf(schema: JsonPropertySchema): string {
  if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join('|');
  if (Array.isArray(schema.type)) return schema.type.join('|');
  if (schema.type === 'array') return `${schema.items ? typeOf(schema.items) : 'any'}[]`;
  if (schema.type) return schema.type;
  if (schema.anyOf) return schema.anyOf.map(typeOf).join('|');
  return 'any';
}

export function describeInputs(tool: GatewayTool): string {
  const required = new Set(tool.inputSchema.required ?? []);
  const entries = Object.entries(tool.inputSchema.properties ?? {});
  if (entries.length === 0) return '(no input)';
  return entries.map(([name, schema]) => `${name}${required.has(name) ? '' : '?'}: ${typeOf(schema)}${schema.default !== undefined ? ` = ${JSON.stringify(schema.default)}` : ''}`).join(', ');
}

export async function toolsCommand(args: ParsedArgs): Promise<number> {
  const address = gatewayAddress(args.values.url);
  const tools = await readGatewayTools(address.baseUrl);
  if (args.switches.json) {
    out(json(tools.map((t) => ({ ...t, atomicPrice: t.atomicPrice.toString() }))));
    return EXIT.ok;
  }
  const first = tools[0]!;
  out(`${tools.length} tools at ${address.baseUrl}, paid in USDC on ${networkName(first.network)} (${first.network}):\n`);
  const width = Math.max(...tools.map((t) => t.name.length));
  for (const tool of tools) {
    out(`${tool.name.padEnd(width)}  ${tool.price.padStart(6)} USDC  ${tool.title}`);
    out(`${' '.repeat(width)}  ${describeInputs(tool)}`);
  }
  out('\nCall one: toolgate call <tool> name=value … (? marks an optional input)');
  return EXIT.ok;
}
