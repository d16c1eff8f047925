// An adapter for agent frameworks that speak OpenAI-style function calling (the OpenAI SDK's
// `tools`, and the many frameworks that accept the same JSON Schema function declarations): the
// gateway's tools as function definitions, and a runner that pays for a call within the caps and
// answers with JSON the model can read, including a refusal it can act on.
import type { ToolgateClient } from './create-client.ts';
import { ToolCallFailed } from './gateway-session.ts';
import { SpendRefused } from './spend-refusal.ts';

export interface FunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface FunctionTools {
  definitions: FunctionTool[];
  /** Runs one function call (its arguments as the JSON string the model produced); never throws for a tool's or a cap's refusal. */
  run(name: string, argumentsJson: string): Promise<string>;
}

export async function functionTools(client: ToolgateClient): Promise<FunctionTools> {
  const tools = await client.tools();
  const definitions = tools.map<FunctionTool>((tool) => ({
    type: 'function',
    function: { name: tool.name, description: `${tool.description} Costs ${tool.price} USDC per call.`, parameters: { type: 'object', ...tool.inputSchema } },
  }));
  const names = new Set(tools.map((t) => t.name));
  return {
    definitions,
    async run(name, argumentsJson) {
      if (!names.has(name)) return JSON.stringify({ error: 'unknown_tool', message: `no tool named ${name}` });
      let input: unknown;
      try {
        input = argumentsJson.trim() === '' ? {} : JSON.parse(argumentsJson);
      } catch {
        return JSON.stringify({ error: 'invalid_arguments', message: 'the arguments are not JSON' });
      }
      if (typeof input !== 'object' || input === null || Array.isArray(input)) return JSON.stringify({ error: 'invalid_arguments', message: 'the arguments must be a JSON object' });
      try {
        const { output, receipt } = await client.call(name, input as Record<string, unknown>);
        return JSON.stringify({ output, paid: receipt ? { price: receipt.price, transaction: receipt.transaction } : null });
      } catch (error) {
        if (error instanceof SpendRefused) return JSON.stringify(error.toJSON());
        if (error instanceof ToolCallFailed) return JSON.stringify({ error: 'tool_call_failed', message: error.message, charged: error.charged });
        throw error;
      }
    },
  };
}
