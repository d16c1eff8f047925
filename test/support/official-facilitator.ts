// The official x402 facilitator (@x402/core x402Facilitator + @x402/evm exact scheme) settling with
// one key on a local chain through plain viem clients, as its documentation wires it: the reference
// of the interop tests (reference-facilitator.ts) and of the benchmark (bench/reference-app.ts). Its
// signer also drives the batch-settlement facilitator scheme (src/chain/batch-settlement-sdk.test.ts).
import { x402Facilitator } from '@x402/core/facilitator';
import type { Network } from '@x402/core/types';
import { toFacilitatorEvmSigner } from '@x402/evm';
import type { FacilitatorEvmSigner } from '@x402/evm';
import { ExactEvmScheme } from '@x402/evm/exact/facilitator';
import { createPublicClient, createWalletClient, http, type Account } from 'viem';
import { localChain } from '../../src/chain/fiat-token.ts';

/** Receipt polling: viem's default on a chain without blockTime is 4 s, which would dominate every settlement. */
const POLLING_MS = 50;

export function officialLocalFacilitator(chain: { chainId: number; rpcUrl: string; network: string }, account: Account): x402Facilitator {
  return new x402Facilitator().register(chain.network as Network, new ExactEvmScheme(localFacilitatorSigner(chain, account)));
}

/** The official facilitator's EVM signer over plain viem clients on a local chain: one key sends, the chain is read. */
export function localFacilitatorSigner(chain: { chainId: number; rpcUrl: string }, account: Account): FacilitatorEvmSigner {
  const viemChain = localChain(chain.chainId, chain.rpcUrl);
  const publicClient = createPublicClient({ chain: viemChain, transport: http(chain.rpcUrl), pollingInterval: POLLING_MS });
  const wallet = createWalletClient({ chain: viemChain, transport: http(chain.rpcUrl), account, pollingInterval: POLLING_MS });
  // The facilitator signer declares loose shapes (abi: unknown[], functionName: string); viem's methods
  // are generic over the exact ABI. The data is the same, so each boundary is cast with `as never`.
  return toFacilitatorEvmSigner({
    address: account.address,
    readContract: (a) => publicClient.readContract(a as never),
    verifyTypedData: (a) => publicClient.verifyTypedData(a as never),
    writeContract: (a) => wallet.writeContract(a as never),
    sendTransaction: (a) => wallet.sendTransaction(a as never),
    waitForTransactionReceipt: (a) => publicClient.waitForTransactionReceipt({ ...a, pollingInterval: POLLING_MS }),
    getCode: (a) => publicClient.getCode(a),
  });
}
