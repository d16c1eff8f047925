// Base and Base Sepolia JSON-RPC (Ethereum JSON-RPC 2.0 over HTTP POST, https://ethereum.org/en/developers/docs/apis/json-rpc/):
// `{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}` answers `{"jsonrpc":"2.0","id":1,"result":"0x..."}`
// or `{"jsonrpc":"2.0","id":1,"error":{"code":-32000,"message":"...","data":"0x..."}}`. A read that
// reverts (eth_call) is an error object with code 3 or -32000 and the revert data: an answer the
// tool reads, not a failure of the provider. A rate limit comes as HTTP 429 or as an error object
// (EIP-1474 code -32005 "limit exceeded"; some nodes use 429 or -32016 in the body).
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import type { ProviderDefinition } from '../provider.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer, UpstreamError } from '../upstream-errors.ts';
import { isJsonObject, jsonObjectOf } from './response-body.ts';

const rpcProvider = (id: string, name: string, env: string, url: string, chain: string): ProviderDefinition =>
  defineProvider({
    id,
    name,
    baseUrl: { env, default: url },
    timeoutMs: 8_000,
    // Transfer logs over a window of blocks are the largest answers.
    maxBytes: 8 * 1024 * 1024,
    // Base publishes no figure for its public endpoint beyond "rate limited, not for production"; this
    // keeps one gateway well inside what it tolerates. A dedicated node: raise it with the _RATE setting.
    rateLimit: { requests: 10, perMs: 1_000, concurrency: 4, maxQueueMs: 3_000 },
    // Only reads pinned to a block number are cached (see pinnedToBlock): they never change.
    cacheTtlMs: 120_000,
    cacheReason: `only reads pinned to a block number are cached (state at a given block does not change); "latest" reads are never cached`,
    staleForMs: 0,
    attribution: `${chain} chain state read over JSON-RPC`,
    termsUrl: 'https://docs.base.org/base-chain/network-information/base-node-providers',
    docsUrl: 'https://ethereum.org/en/developers/docs/apis/json-rpc/',
  });

export const baseRpc = rpcProvider('baseRpc', 'Base RPC', 'TOOLGATE_BASE_RPC_URL', 'https://mainnet.base.org', 'Base');
export const baseSepoliaRpc = rpcProvider('baseSepoliaRpc', 'Base Sepolia RPC', 'TOOLGATE_BASE_SEPOLIA_RPC_URL', 'https://sepolia.base.org', 'Base Sepolia');

/** A JSON-RPC error object, as the node sent it. */
export interface RpcErrorObject {
  code: number;
  message: string;
  data?: unknown;
}

export type RpcOutcome = { result: unknown } | { error: RpcErrorObject };

const RATE_LIMIT_CODES = new Set([-32005, -32016, 429]);

/** One JSON-RPC request. An error object the node answers with is returned, not thrown; a rate limit is a 503. */
export async function rpcRequest(
  caller: ProviderCaller,
  provider: ProviderDefinition,
  method: string,
  params: readonly unknown[],
  signal: AbortSignal,
): Promise<ProviderAnswer<RpcOutcome>> {
  const request = {
    path: '',
    method: 'POST' as const,
    json: { jsonrpc: '2.0', id: 1, method, params },
    idempotent: true,
    cache: pinnedToBlock(method, params),
  };
  return caller.call(provider, request, (response) => parseRpcOutcome(jsonObjectOf(response, provider.name), provider.name, method), signal);
}

export function parseRpcOutcome(body: Readonly<Record<string, unknown>>, providerName: string, method: string): RpcOutcome {
  const error = body.error;
  if (isJsonObject(error)) {
    const code = typeof error.code === 'number' ? error.code : 0;
    const message = typeof error.message === 'string' ? error.message : 'no message';
    if (RATE_LIMIT_CODES.has(code) || /rate limit|too many requests/i.test(message)) {
      throw new UpstreamError('rate_limited', providerName, `it is rate-limiting this gateway (${method}: ${message.slice(0, 120)})`, { retryAfterSeconds: 2 });
    }
    return { error: { code, message, ...(error.data !== undefined ? { data: error.data } : {}) } };
  }
  if (!('result' in body)) throw badAnswer(providerName, `its answer to ${method} has neither a result nor an error`);
  return { result: body.result };
}

const BLOCK_NUMBER = /^0x[0-9a-f]+$/i;
const isBlockNumber = (value: unknown): boolean => typeof value === 'string' && BLOCK_NUMBER.test(value);

/**
 * Whether the answer depends only on its parameters: a read at a given block number (not a tag
 * such as "latest"), which may be cached as long as we like.
 */
export function pinnedToBlock(method: string, params: readonly unknown[]): boolean {
  switch (method) {
    case 'eth_chainId':
      return true;
    case 'eth_call':
      return isBlockNumber(params[1]);
    case 'eth_getBalance':
    case 'eth_getTransactionCount':
    case 'eth_getCode':
      return isBlockNumber(params[1]);
    case 'eth_getStorageAt':
      return isBlockNumber(params[2]);
    case 'eth_getBlockByNumber':
      return isBlockNumber(params[0]);
    case 'eth_feeHistory':
      return isBlockNumber(params[1]);
    case 'eth_getLogs': {
      const filter = params[0];
      return isJsonObject(filter) && isBlockNumber(filter.fromBlock) && isBlockNumber(filter.toBlock);
    }
    default:
      return false;
  }
}
