// Block explorer links for the networks that have one (the gateway's own table of networks).
import { publicNetwork } from '../payments/networks.ts';

const explorers: Readonly<Record<string, string | undefined>> = Object.fromEntries(
  (['base', 'base-sepolia'] as const).map((name) => [publicNetwork(name).caip2, publicNetwork(name).explorerUrl]),
);

const TRANSACTION_HASH = /^0x[0-9a-fA-F]{64}$/;

/** The explorer page of a transaction, or undefined on a network without an explorer (a local chain). */
export function transactionLink(network: string, transaction: string | undefined): string | undefined {
  const base = explorers[network];
  return base && transaction && TRANSACTION_HASH.test(transaction) ? `${base}/tx/${transaction}` : undefined;
}

export const networkNames: Readonly<Record<string, string>> = {
  'eip155:8453': 'Base',
  'eip155:84532': 'Base Sepolia',
  'eip155:31337': 'local devchain',
};

export const networkName = (network: string): string => networkNames[network] ?? network;
