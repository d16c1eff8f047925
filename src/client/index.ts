// toolgate/client: pay toolgate's tools from code, within caps.
export { createClient, type ClientOptions, type ToolgateClient, type ToolResult } from './create-client.ts';
export type { ToolInputOf, ToolName, ToolOutputOf } from './tool-types.ts';
export type { Receipt } from './receipt.ts';
export type { GatewayTool } from './gateway-tools.ts';
export { SpendRefused, type CapName } from './spend-refusal.ts';
export { ToolCallFailed, type SchemeChoice } from './gateway-session.ts';
export { functionTools, type FunctionTool, type FunctionTools } from './function-tools.ts';
