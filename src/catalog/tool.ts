// The one contract for a tool. Every face (HTTP, MCP, payment requirements, discovery documents,
// dashboard) is derived from values of this type; nothing else holds a name, price or parameter.
import type { z } from 'zod';
import type { ProviderCaller } from '../upstream/provider-call.ts';
import type { WebPages } from '../upstream/web-pages.ts';

export type HttpMethod = 'GET' | 'POST';

/** What a handler may use besides its input. Everything from the outside world comes through here. */
export interface ToolContext {
  /** Aborted when the call's time budget runs out or the caller goes away. */
  signal: AbortSignal;
  /** The clock, injectable so time-dependent tools are testable. */
  now: () => Date;
  /** The caller as the gateway sees it (socket address, or a trusted proxy's X-Forwarded-For). */
  caller: { ip: string; userAgent?: string; /** The request id the response carries (X-Request-Id) and the logs name. */ requestId?: string };
  /** When the call's time budget ends (epoch ms); the signal is aborted then. */
  deadline: number;
  /** Providers, through the upstream layer: base URLs, limits, retries, cache, errors that are never charged. */
  upstream: ProviderCaller;
  /** Caller-supplied URLs, through the SSRF guard, and the headless browser. */
  web: WebPages;
}

/** What a tool's precheck may consult: the gateway's settings, no network. */
export interface PrecheckContext {
  web: Pick<WebPages, 'precheck'>;
}

/** Input of a tool: a zod object whose keys are the MCP input names. */
export type ToolInput = z.ZodObject<z.ZodRawShape>;

/**
 * One HTTP endpoint of a tool. Most tools have exactly one; `generate_hashes_and_uuids` has two
 * (GET /api/tools/uuid and POST /api/tools/hash), each exposing part of the tool with its own
 * input and handler.
 */
export interface HttpRoute {
  method: HttpMethod;
  path: string;
  /** HTTP parameter names where the spec's differ from the MCP input names: `{ mcpName: httpName }`. */
  rename?: Readonly<Record<string, string>>;
  /** Input of this route when it is not the tool's whole input (keys are MCP names, before `rename`). */
  input?: ToolInput;
  /** Handler of this route when it is not the tool's handler. */
  handler?(input: Record<string, unknown>, ctx: ToolContext): Promise<unknown>;
  /** A typical input of this route (MCP names), when the route has its own input. */
  example?: Readonly<Record<string, unknown>>;
  /** Short summary of what this route returns, for the discovery documents. */
  summary?: string;
}

export interface ToolAnnotations {
  readOnlyHint: boolean;
  /** True when the tool reaches the outside world (web, chain, upstream APIs). */
  openWorldHint: boolean;
  idempotentHint?: boolean;
  destructiveHint?: boolean;
}

export interface ToolDefinition<S extends ToolInput = ToolInput, O = unknown> {
  /** MCP tool name, snake_case, as in the spec's MCP table. */
  name: string;
  title: string;
  /** What the tool does and returns, for people and models. The price is appended by the faces. */
  description: string;
  /** Price per call in USDC as a decimal string, e.g. "0.005". */
  price: string;
  http: readonly HttpRoute[];
  /** Input with the spec's defaults and ranges; keys are MCP names. */
  input: S;
  annotations: ToolAnnotations;
  /** A typical input (MCP names), used in the documents and by the tests that pay for every tool. */
  example: Readonly<Record<string, unknown>>;
  /** Upper bound on one run of the handler, in milliseconds. */
  timeoutMs?: number;
  /**
   * Checks of valid input that depend on the gateway's settings (e.g. a URL the SSRF guard refuses
   * by its form alone), run before payment is asked for: a ToolError(400) thrown here is free.
   */
  precheck?(input: z.output<S>, ctx: PrecheckContext): void;
  /**
   * Runs the tool on validated input. Absent while the tool is declared but not built yet:
   * then every face answers "not implemented" before any payment is asked for.
   * Declared as a method so a handler typed for its own input fits the catalogue's list.
   */
  handler?(input: z.output<S>, ctx: ToolContext): Promise<O>;
}

export type Tool = ToolDefinition<ToolInput>;

/**
 * Declares a tool with its input type flowing into its handler; its name (as a literal) and its
 * handler's output type are kept, so the typed client (src/client/tool-types.ts) can derive from them.
 */
export function defineTool<const N extends string, S extends ToolInput, O>(definition: ToolDefinition<S, O> & { name: N }): ToolDefinition<S, O> & { name: N } {
  return definition;
}

// Tools throw it; it lives below the catalogue because the upstream layer throws it too.
export { ToolError } from '../errors/tool-error.ts';
