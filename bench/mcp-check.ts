// What a right MCP answer is: checked in full once per scenario and target before measuring (the bench
// stops if it fails), then cheaply on every answer under load.
import type { McpMethod, McpRequest, ToolCall } from './mcp-scenarios.ts';

/**
 * The cheap per-answer check used under load: a JSON-RPC result (not an error); a tool list for
 * tools/list; for tools/call, the kind of result expected (payment required, or the tool's result).
 * It relies on how the SDK serializes a response (`{"result":…` first), which `checkAnswer` confirms.
 */
export function looksRight(method: McpMethod, answer: ToolCall['answer'], body: string): boolean {
  if (!body.startsWith('{"result":')) return false;
  if (method === 'tools/list') return body.startsWith('{"result":{"tools":[');
  const isError = body.includes('"isError":true');
  return answer === 'payment-required' ? isError && body.includes('"x402Version":2') : !isError;
}

interface JsonRpcAnswer {
  result?: {
    tools?: unknown[];
    isError?: boolean;
    content?: { type: string; text?: string }[];
    structuredContent?: { x402Version?: number; accepts?: unknown[] };
  };
  error?: { code: number; message: string };
}

export interface CheckedAnswer {
  /** Size of the answer's body. */
  bytes: number;
  /** One line on what came back, for the log. */
  summary: string;
}

/** Sends `request` once and throws, naming what is wrong, unless the answer is a 200 with the right result. */
export async function checkAnswer(label: string, url: string, request: McpRequest, method: McpMethod, call: ToolCall): Promise<CheckedAnswer> {
  const res = await fetch(url, { method: 'POST', headers: request.headers, body: request.body, signal: AbortSignal.timeout(10_000) });
  const text = await res.text();
  const fail = (why: string): never => {
    throw new Error(`${label}: ${why}\n  request: ${request.body}\n  answer (${res.status}): ${text.slice(0, 600)}`);
  };
  if (res.status !== 200) fail(`HTTP ${res.status}, expected 200`);
  if (!(res.headers.get('content-type') ?? '').includes('application/json')) fail(`content-type ${res.headers.get('content-type')}, expected JSON`);
  let answer: JsonRpcAnswer;
  try {
    answer = JSON.parse(text) as JsonRpcAnswer;
  } catch {
    return fail('the body is not JSON');
  }
  if (answer.error) fail(`JSON-RPC error ${answer.error.code}: ${answer.error.message}`);
  const result = answer.result ?? fail('no result');
  let summary: string;
  if (method === 'tools/list') {
    if (!Array.isArray(result.tools) || result.tools.length === 0) fail('no tools listed');
    summary = `${result.tools?.length} tool(s)`;
  } else if (call.answer === 'payment-required') {
    const required = result.structuredContent;
    if (result.isError !== true || required?.x402Version !== 2 || !required.accepts?.length) fail('expected an isError result carrying the x402 PaymentRequired');
    summary = `payment required (isError, x402Version 2, ${required?.accepts?.length} accepts)`;
  } else {
    if (result.isError) fail('the tool answered isError');
    if (result.content?.[0]?.text !== call.arguments.text) fail(`expected the text ${JSON.stringify(call.arguments.text)} back`);
    summary = 'tool result';
  }
  if (!looksRight(method, call.answer, text)) fail('the answer is right but the cheap check used under load would reject it');
  return { bytes: Buffer.byteLength(text), summary: `${summary}, ${Buffer.byteLength(text)} bytes` };
}
