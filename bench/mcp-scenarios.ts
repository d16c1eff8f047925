// What the MCP bench sends: four scenarios (two protocol eras × tools/list and an unpaid tools/call),
// and the exact request of each, byte for byte what the official clients send.
//
// 2025 era (what a 2.x Client in legacy mode, or a 1.x Client, sends after its handshake): plain
// JSON-RPC with the `MCP-Protocol-Version` header. The stateless servers answer tools/list and
// tools/call without a prior `initialize` (each request gets a fresh server and transport), so the
// bench sends the request alone.
//
// 2026-07-28 (what a 2.x Client pinned to that revision sends, captured from
// @modelcontextprotocol/client 2.4.0 with a logging fetch): every request carries the revision, the
// client's info and its capabilities in `params._meta` ("io.modelcontextprotocol/…" keys), and the
// headers `MCP-Protocol-Version`, `Mcp-Method` and, for tools/call, `Mcp-Name` (which the server
// checks against the body).

export type Era = '2025-11-25' | '2026-07-28';
export type McpMethod = 'tools/list' | 'tools/call';

export interface Scenario {
  id: 'a' | 'b' | 'c' | 'd';
  era: Era;
  method: McpMethod;
  title: string;
}

export const SCENARIOS: readonly Scenario[] = [
  { id: 'a', era: '2025-11-25', method: 'tools/list', title: '2025-11-25 tools/list (stateless, no initialize)' },
  { id: 'b', era: '2025-11-25', method: 'tools/call', title: '2025-11-25 tools/call, unpaid' },
  { id: 'c', era: '2026-07-28', method: 'tools/list', title: '2026-07-28 tools/list' },
  { id: 'd', era: '2026-07-28', method: 'tools/call', title: '2026-07-28 tools/call, unpaid' },
];

/** The tool a target is called with, and what a right answer to that call is. */
export interface ToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** toolgate: an isError result carrying the x402 PaymentRequired; the reference: echo's plain result. */
  answer: 'payment-required' | 'tool-result';
}

export interface McpRequest {
  headers: Record<string, string>;
  body: string;
}

const CLIENT_INFO = { name: 'toolgate-bench', version: '1.0.0' };

/** The request of `scenario` to a target whose tools/call is `call`. */
export function mcpRequest(scenario: Scenario, call: ToolCall): McpRequest {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'MCP-Protocol-Version': scenario.era,
  };
  const params: Record<string, unknown> = scenario.method === 'tools/call' ? { name: call.name, arguments: call.arguments } : {};
  if (scenario.era === '2026-07-28') {
    headers['Mcp-Method'] = scenario.method;
    if (scenario.method === 'tools/call') headers['Mcp-Name'] = call.name;
    params._meta = {
      'io.modelcontextprotocol/protocolVersion': scenario.era,
      'io.modelcontextprotocol/clientInfo': CLIENT_INFO,
      'io.modelcontextprotocol/clientCapabilities': {},
    };
  }
  const message = { jsonrpc: '2.0', id: 1, method: scenario.method, ...(Object.keys(params).length ? { params } : {}) };
  return { headers, body: JSON.stringify(message) };
}
