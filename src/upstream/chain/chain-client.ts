// A viem client for reading Base or Base Sepolia, whose every JSON-RPC request goes through the
// upstream layer (the provider's base URL setting, timeout, size cap, rate limit, retries of reads,
// the per-block cache). Tools use viem's actions (getBlock, multicall through Multicall3,
// getFeeHistory, call with state overrides, getLogs) and never fetch a node themselves.
import { BaseError, createPublicClient, custom } from 'viem';
import type { PublicClient } from 'viem';
import { base, baseSepolia } from '../../chain/base-chains.ts';
import type { ProviderCaller } from '../provider-call.ts';
import type { ProviderDefinition } from '../provider.ts';
import { baseRpc, baseSepoliaRpc, rpcRequest } from '../providers/base-rpc.ts';
import { badAnswer, UpstreamError } from '../upstream-errors.ts';
import { ToolError } from '../../errors/tool-error.ts';

export type BaseNetwork = 'mainnet' | 'sepolia';

export const networkProvider: Readonly<Record<BaseNetwork, ProviderDefinition>> = { mainnet: baseRpc, sepolia: baseSepoliaRpc };
// Multicall3 without viem's `blockCreated`: it has been at its address since Base's first blocks,
// and a chain stand-in with low block numbers (anvil in tests) must batch the same way.
const withMulticall3 = <C extends typeof base | typeof baseSepolia>(chain: C): C => ({
  ...chain,
  contracts: { ...chain.contracts, multicall3: { address: chain.contracts.multicall3.address } },
});
const networkChain = { mainnet: withMulticall3(base), sepolia: withMulticall3(baseSepolia) } as const;

/** What a node's error object becomes for viem: it decodes reverts from `code` and `data`. */
class NodeError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

export interface ChainClient {
  network: BaseNetwork;
  provider: ProviderDefinition;
  client: PublicClient;
}

export function chainClient(caller: ProviderCaller, network: BaseNetwork, signal: AbortSignal): ChainClient {
  const provider = networkProvider[network];
  const transport = custom(
    {
      async request({ method, params }: { method: string; params?: unknown }) {
        const answer = await rpcRequest(caller, provider, method, Array.isArray(params) ? params : [], signal);
        const outcome = answer.value;
        if ('error' in outcome) throw new NodeError(outcome.error.code, outcome.error.message, outcome.error.data);
        return outcome.result;
      },
    },
    // The upstream layer retries what is safe to retry; viem must not multiply that.
    { retryCount: 0 },
  );
  const client = createPublicClient({
    chain: networkChain[network],
    transport,
    // Reads issued together (Promise.all of readContract) go out as one Multicall3 aggregate3 call.
    batch: { multicall: { batchSize: 16_384, wait: 0 } },
  }) as PublicClient;
  return { network, provider, client };
}

/**
 * What a failed chain read means for the caller: the provider's own failure (502/503/504, never
 * charged) found anywhere in viem's chain of causes, a ToolError as it is, else the node refused
 * the request (502 naming the method and its message).
 */
export function chainFailure(error: unknown, provider: ProviderDefinition): ToolError {
  const found = providerFailureIn(error);
  if (found) return found;
  const reason = error instanceof BaseError ? error.shortMessage : error instanceof Error ? error.message : String(error);
  if (error instanceof Error && error.name === 'AbortError') return new UpstreamError('timeout', provider.name, 'the call ended before it answered');
  return badAnswer(provider.name, `it refused a read (${reason.slice(0, 200)})`);
}

/**
 * The gateway's own failure (a provider that failed, a ToolError) anywhere in viem's chain of
 * causes; undefined when the node answered and the error is about the answer (a revert).
 */
export function providerFailureIn(error: unknown): ToolError | undefined {
  let cause: unknown = error;
  for (let depth = 0; cause !== undefined && depth < 10; depth += 1) {
    if (cause instanceof ToolError) return cause;
    cause = cause instanceof Error ? cause.cause : undefined;
  }
  return undefined;
}

/** Runs chain reads, turning any failure into what the caller should see (see chainFailure). */
export async function readChain<T>(chain: ChainClient, reads: (client: PublicClient) => Promise<T>): Promise<T> {
  try {
    return await reads(chain.client);
  } catch (error) {
    throw chainFailure(error, chain.provider);
  }
}
