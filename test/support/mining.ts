// Pausing the dev chain's mining (automine and its one-second backstop, see DEV_CHAIN_MINING), so
// that a settlement's receipt does not come in time and the payment is recorded as pending.
import type { DevChain } from '../../src/chain/devchain.ts';
import { chainClients } from './payments.ts';

export async function withMiningPaused<T>(chain: DevChain, run: () => Promise<T>): Promise<T> {
  const { publicClient } = chainClients(chain);
  const rpc = (method: string, params: unknown[]) => publicClient.request({ method: method as 'eth_chainId', params: params as never });
  await rpc('evm_setIntervalMining', [0]);
  await rpc('evm_setAutomine', [false]);
  try {
    return await run();
  } finally {
    await rpc('evm_setAutomine', [true]);
    await rpc('evm_setIntervalMining', [1]);
  }
}
