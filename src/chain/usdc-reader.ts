// Reads what the chain says about USDC payments: for health checks and for reconciling
// settlements whose outcome was not seen.
import { eip3009ABI } from '@x402/evm';
import { createPublicClient, http } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import type { PaymentNetwork } from '../payments/networks.ts';
import { viemChain } from './viem-chain.ts';

export class UsdcChainReader {
  private readonly client: PublicClient;

  constructor(private readonly network: PaymentNetwork, rpcUrl: string) {
    this.client = createPublicClient({ chain: viemChain(network, rpcUrl), transport: http(rpcUrl, { retryCount: 0 }) });
  }

  blockNumber(): Promise<bigint> {
    return this.client.getBlockNumber({ cacheTime: 0 });
  }

  async transactionOutcome(hash: Hex): Promise<'success' | 'reverted' | 'unknown'> {
    try {
      return (await this.client.getTransactionReceipt({ hash })).status;
    } catch {
      return 'unknown';
    }
  }

  authorizationUsed(payer: Address, nonce: Hex): Promise<boolean> {
    return this.client.readContract({ address: this.network.usdc.address, abi: eip3009ABI, functionName: 'authorizationState', args: [payer, nonce] });
  }

  balanceOf(owner: Address): Promise<bigint> {
    return this.client.readContract({ address: this.network.usdc.address, abi: eip3009ABI, functionName: 'balanceOf', args: [owner] });
  }
}
