// What the settler sent, read from the chain rather than from the gateway: each transaction from
// a settler address in a block range, its receipt, and which payers its calldata names (every
// settlement encodes each authorization's `from` as an ABI word, whatever the batching contract).
import { getAddress } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import { AUTHORIZATION_USED_TOPIC } from '../../../src/payments/settlement/settlement-calls.ts';

export interface SettlerTransaction {
  hash: Hex;
  input: Hex;
  status: 'success' | 'reverted';
  gasUsed: bigint;
  gasLimit: bigint;
  /** Authorizers USDC emitted AuthorizationUsed for in this transaction. */
  authorizationsUsed: Set<Address>;
}

export async function settlerTransactions(client: PublicClient, settlers: readonly Address[], usdc: Address, fromBlock: bigint): Promise<SettlerTransaction[]> {
  const wanted = new Set(settlers.map((a) => a.toLowerCase()));
  const latest = await client.getBlockNumber();
  const found: SettlerTransaction[] = [];
  for (let n = fromBlock; n <= latest; n += 1n) {
    const block = await client.getBlock({ blockNumber: n, includeTransactions: true });
    for (const tx of block.transactions) {
      if (!wanted.has(tx.from.toLowerCase())) continue;
      const receipt = await client.getTransactionReceipt({ hash: tx.hash });
      const authorizationsUsed = new Set<Address>();
      for (const log of receipt.logs) {
        const [topic, authorizer] = log.topics;
        if (log.address.toLowerCase() === usdc.toLowerCase() && topic === AUTHORIZATION_USED_TOPIC && authorizer) {
          authorizationsUsed.add(getAddress(`0x${authorizer.slice(26)}`));
        }
      }
      found.push({ hash: tx.hash, input: tx.input, status: receipt.status, gasUsed: receipt.gasUsed, gasLimit: tx.gas, authorizationsUsed });
    }
  }
  return found;
}

/** Whether the transaction's calldata carries an authorization from `payer`. */
export const carries = (tx: SettlerTransaction, payer: Address): boolean => tx.input.toLowerCase().includes(payer.slice(2).toLowerCase());
