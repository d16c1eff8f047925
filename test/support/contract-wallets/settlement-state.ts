// Waiting on the gateway's settlement engine and the settler's transactions, each wait bounded
// (a test that waits forever never reports). Nothing here asserts on time.
import type { Address, PublicClient } from 'viem';
import { BatchedTransferSettlement } from '../../../src/payments/settlement/batched-transfers.ts';
import type { TestGateway } from '../gateway-harness.ts';

/** Resolves once `probe` is true; throws after `timeoutMs` naming what it waited for. */
export async function until(probe: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what} after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Payments queued in the engine and in its transactions in flight (0 for engines without a queue). */
export function settlementDepth(t: TestGateway): { queued: number; inFlight: number } {
  return t.gateway.settlement instanceof BatchedTransferSettlement ? t.gateway.settlement.depth() : { queued: 0, inFlight: 0 };
}

/** Nothing queued, nothing in flight, and no settler transaction left in the pool: every outcome is on chain. */
export async function settlementIdle(t: TestGateway, client: PublicClient, settlers: readonly Address[]): Promise<void> {
  await until(async () => {
    const { queued, inFlight } = settlementDepth(t);
    if (queued > 0 || inFlight > 0) return false;
    for (const address of settlers) {
      const [pending, latest] = await Promise.all([
        client.getTransactionCount({ address, blockTag: 'pending' }),
        client.getTransactionCount({ address, blockTag: 'latest' }),
      ]);
      if (pending !== latest) return false;
    }
    return true;
  }, 'the settlement engine to be idle with every settler transaction mined');
}
