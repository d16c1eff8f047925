// The typed client: one function per tool, named as the tool, taking its input and resolving to
// its output and the payment's receipt, paid through the official x402 client within the caps.
//   const toolgate = createClient({ url: 'http://localhost:4021', dailyBudget: '1' });
//   const { output, receipt } = await toolgate.evaluate_regex({ pattern: 'a(n)', text: 'banana' });
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import type { GatewayTool } from './gateway-tools.ts';
import type { GatewaySession } from './gateway-session.ts';
import { payingSession, type PayingSettings } from './paying-session.ts';
import type { Receipt } from './receipt.ts';
import type { ToolInputOf, ToolName, ToolOutputOf } from './tool-types.ts';
import { formatUsdc } from './usdc-amount.ts';

export interface ToolResult<O> {
  output: O;
  /** Absent only when the gateway did not ask for payment. */
  receipt?: Receipt;
}

export interface ClientOptions extends Omit<PayingSettings, 'account' | 'askPassphrase'> {
  /** The payer's private key. Default: TOOLGATE_PAYER_KEY, else `keystore`, else a local gateway's demo payer. */
  payerKey?: Hex;
}

export type ToolFunctions = { [N in ToolName]: (input: ToolInputOf<N>) => Promise<ToolResult<ToolOutputOf<N>>> };

export interface ClientControls {
  /** The gateway's tools with their advertised prices (its discovery document). */
  tools(): Promise<GatewayTool[]>;
  /** Calls a tool by name, untyped (for tools this version does not know). */
  call(name: string, input: Record<string, unknown>): Promise<ToolResult<unknown>>;
  /** USDC (decimal) spent by this client object since it was created. */
  sessionSpent(): string;
  /** Closes the connection to the gateway. */
  close(): Promise<void>;
}

export type ToolgateClient = ToolFunctions & ClientControls;

async function call(session: GatewaySession, name: string, input: Record<string, unknown>): Promise<ToolResult<unknown>> {
  const paid = await session.call(name, input);
  return { output: paid.output, ...(paid.receipt ? { receipt: paid.receipt } : {}) };
}

const TOOL_NAME = /^[a-z][a-z0-9_]*$/;

export function createClient(options: ClientOptions = {}): ToolgateClient {
  const { payerKey, ...settings } = options;
  const session = payingSession({ ...settings, ...(payerKey ? { account: privateKeyToAccount(payerKey) } : {}) });
  const controls: ClientControls = {
    tools: () => session.tools(),
    call: (name, input) => call(session, name, input),
    sessionSpent: () => formatUsdc(session.limits.sessionSpent),
    close: () => session.close(),
  };
  // Every other property is a tool: the gateway's discovery document says which exist.
  return new Proxy(controls, {
    get(target, property, receiver) {
      if (typeof property !== 'string' || property in target) return Reflect.get(target, property, receiver);
      // Tool names are snake_case; anything else (then, toJSON, …) is not a tool, so the client is no thenable.
      if (!TOOL_NAME.test(property) || property === 'then') return undefined;
      return (input: Record<string, unknown> = {}) => call(session, property, input);
    },
  }) as ToolgateClient;
}
