// Where the gateway is: its base URL (discovery documents) and its MCP endpoint, from one --url.
export const DEFAULT_GATEWAY_URL = 'http://localhost:4021';

export interface GatewayAddress {
  /** e.g. http://localhost:4021 */
  baseUrl: string;
  /** e.g. http://localhost:4021/mcp */
  mcpUrl: string;
}

/** Accepts the gateway's base URL or its MCP endpoint (`…/mcp`); `undefined` means TOOLGATE_URL, else the local default. */
export function gatewayAddress(url: string | undefined, env: NodeJS.ProcessEnv = process.env): GatewayAddress {
  const given = url ?? env.TOOLGATE_URL ?? DEFAULT_GATEWAY_URL;
  let parsed: URL;
  try {
    parsed = new URL(given);
  } catch {
    throw new Error(`--url must be an http(s) URL such as ${DEFAULT_GATEWAY_URL} (got ${JSON.stringify(given)})`);
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error(`--url must be http or https (got ${given})`);
  parsed.search = '';
  parsed.hash = '';
  const path = parsed.pathname.replace(/\/+$/, '');
  const basePath = path.endsWith('/mcp') ? path.slice(0, -'/mcp'.length) : path;
  const baseUrl = `${parsed.origin}${basePath}`;
  return { baseUrl, mcpUrl: `${baseUrl}/mcp` };
}

/** True for a gateway on this machine (where the demo payer of devchain.json may be used). */
export function isLoopback(address: GatewayAddress): boolean {
  const host = new URL(address.baseUrl).hostname;
  return host === 'localhost' || host === '127.0.0.1' || host === '[::1]';
}
