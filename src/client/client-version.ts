// The version this client announces to gateways (MCP clientInfo).
export const clientVersion = '0.1.0';
