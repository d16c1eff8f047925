// A payment's standing on chain now, not as cached: whether its nonce is still unused and what the
// payer holds. Read before a tool that costs us real work runs, and for payers on probation, so a
// used, cancelled or unfunded authorization never runs such a tool. Checks asked for in the same
// turn of the event loop share one eth_call (Multicall3 over balanceOf and authorizationState).
import { eip3009ABI } from '@x402/evm';
import type { Address, Hex, PublicClient } from 'viem';

export interface FreshState {
  balance: bigint;
  nonceUsed: boolean;
}

interface Waiting {
  payer: Address;
  nonce: Hex;
  resolve(state: FreshState): void;
  reject(error: unknown): void;
}

export class FreshPaymentState {
  private waiting: Waiting[] = [];

  constructor(
    private readonly client: PublicClient,
    private readonly usdc: Address,
    private readonly multicall3: Address,
  ) {}

  read(payer: Address, nonce: Hex): Promise<FreshState> {
    return new Promise<FreshState>((resolve, reject) => {
      this.waiting.push({ payer, nonce, resolve, reject });
      if (this.waiting.length === 1) setImmediate(() => void this.flush());
    });
  }

  private async flush(): Promise<void> {
    const batch = this.waiting;
    this.waiting = [];
    try {
      const results = await this.client.multicall({
        multicallAddress: this.multicall3,
        allowFailure: false,
        contracts: batch.flatMap((w) => [
          { address: this.usdc, abi: eip3009ABI, functionName: 'balanceOf', args: [w.payer] } as const,
          { address: this.usdc, abi: eip3009ABI, functionName: 'authorizationState', args: [w.payer, w.nonce] } as const,
        ]),
      });
      batch.forEach((w, i) => w.resolve({ balance: results[2 * i] as bigint, nonceUsed: results[2 * i + 1] as boolean }));
    } catch (error) {
      for (const w of batch) w.reject(error);
    }
  }
}
