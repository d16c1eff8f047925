// The gateway's tools as its own discovery document lists them (GET /.well-known/x402, the MCP
// resources `mcp://tool/<name>`): name, description, advertised price and terms, input schema.
import type { PaymentRequirements } from '@x402/core/types';
import { z } from 'zod';

export interface GatewayTool {
  name: string;
  title: string;
  description: string;
  /** Advertised price in USDC, as a decimal string ("0.001"). */
  price: string;
  /** The same price in atomic units, as the 402 will ask. */
  atomicPrice: bigint;
  /** CAIP-2 network, e.g. eip155:8453. */
  network: string;
  /** The token contract (USDC). */
  asset: string;
  payTo: string;
  /** JSON Schema of the tool's input (the names `toolgate call name=value` takes). */
  inputSchema: JsonObjectSchema;
  /** An input the gateway documents as valid (the bazaar extension's example), if it gives one. */
  example?: Record<string, unknown>;
  /** The gateway's payment-channel offer (batch-settlement) for this tool, as its 402 makes it, if it offers one. */
  channelOffer?: PaymentRequirements;
}

export interface JsonObjectSchema {
  type?: string;
  properties?: Record<string, JsonPropertySchema>;
  required?: string[];
  [key: string]: unknown;
}

export interface JsonPropertySchema {
  type?: string | string[];
  description?: string;
  default?: unknown;
  enum?: unknown[];
  anyOf?: JsonPropertySchema[];
  items?: JsonPropertySchema;
  [key: string]: unknown;
}

const requirementsSchema = z.object({
  scheme: z.string(),
  network: z.string(),
  amount: z.string().regex(/^\d+$/),
  asset: z.string(),
  payTo: z.string(),
}).passthrough();

const itemSchema = z.object({
  resource: z.string(),
  type: z.string(),
  accepts: z.array(requirementsSchema).min(1),
  metadata: z
    .object({
      name: z.string(),
      title: z.string().optional(),
      description: z.string().optional(),
      price: z.string(),
      extensions: z.object({ bazaar: z.object({ info: z.object({ input: z.object({ inputSchema: z.record(z.string(), z.unknown()).optional(), example: z.record(z.string(), z.unknown()).optional() }).passthrough() }) }).passthrough() }).partial().passthrough().optional(),
    })
    .passthrough(),
});

const documentSchema = z.object({ x402Version: z.literal(2), items: z.array(z.unknown()) });

export const DISCOVERY_PATH = '/.well-known/x402';

/** Reads the gateway's tools. Throws with the URL and the reason when the document is missing or not what it should be. */
export async function readGatewayTools(baseUrl: string, fetchImpl: typeof fetch = fetch): Promise<GatewayTool[]> {
  const url = `${baseUrl}${DISCOVERY_PATH}`;
  let response: Response;
  try {
    response = await fetchImpl(url, { headers: { accept: 'application/json' } });
  } catch (error) {
    throw new Error(`cannot reach the gateway at ${baseUrl} (${(error as Error).cause instanceof Error ? ((error as Error).cause as Error).message : (error as Error).message}); is it running? (--url or TOOLGATE_URL)`);
  }
  if (!response.ok) throw new Error(`${url} answered ${response.status}: is ${baseUrl} a toolgate gateway?`);
  const parsed = documentSchema.safeParse(await response.json().catch(() => undefined));
  if (!parsed.success) throw new Error(`${url} is not an x402 discovery list: is ${baseUrl} a toolgate gateway?`);
  const tools: GatewayTool[] = [];
  for (const raw of parsed.data.items) {
    const item = itemSchema.safeParse(raw);
    if (!item.success || item.data.type !== 'mcp' || !item.data.resource.startsWith('mcp://tool/')) continue;
    const { metadata, accepts } = item.data;
    const terms = accepts.find((a) => a.scheme === 'exact') ?? accepts[0]!;
    const channelOffer = accepts.find((a) => a.scheme === 'batch-settlement' && a.network === terms.network && a.asset.toLowerCase() === terms.asset.toLowerCase());
    const inputSchema = (metadata.extensions?.bazaar?.info.input.inputSchema ?? { type: 'object', properties: {} }) as JsonObjectSchema;
    tools.push({
      name: metadata.name,
      title: metadata.title ?? metadata.name,
      description: metadata.description ?? '',
      price: metadata.price,
      atomicPrice: BigInt(terms.amount),
      network: terms.network,
      asset: terms.asset,
      payTo: terms.payTo,
      inputSchema,
      ...(metadata.extensions?.bazaar?.info.input.example ? { example: metadata.extensions.bazaar.info.input.example } : {}),
      ...(channelOffer ? { channelOffer: channelOffer as unknown as PaymentRequirements } : {}),
    });
  }
  if (tools.length === 0) throw new Error(`${url} lists no MCP tools: is ${baseUrl} a toolgate gateway?`);
  return tools;
}

/** The named tool, or an error that names the tools there are. */
export function findTool(tools: readonly GatewayTool[], name: string): GatewayTool {
  const tool = tools.find((t) => t.name === name);
  if (!tool) throw new Error(`unknown tool ${JSON.stringify(name)}; the gateway sells: ${tools.map((t) => t.name).join(', ')}`);
  return tool;
}
