// Pays for a toolgate call with the official x402 client (@x402/fetch + @x402/evm), against the
// local default started by `npm start`. Run: npm run example:pay [-- <path>]
//   e.g. npm run example:pay -- /api/tools/uuid
// It reads the demo payer's key and the local USDC address from <TOOLGATE_DATA_DIR>/devchain.json.
import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { x402Client } from '@x402/core/client';
import { decodePaymentResponseHeader } from '@x402/core/http';
import type { Network } from '@x402/core/types';
import { registerExactEvmScheme } from '@x402/evm/exact/client';
import { wrapFetchWithPayment } from '@x402/fetch';
import { privateKeyToAccount } from 'viem/accounts';
import type { Address, Hex } from 'viem';

export interface DevChainInfo {
  network: string;
  usdc: Address;
  payer: { address: Address; privateKey: Hex };
}

/** A fetch that answers 402s by signing an EIP-3009 authorization with the given key. */
export function payingFetch(devChain: DevChainInfo): typeof fetch {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: privateKeyToAccount(devChain.payer.privateKey) });
  // The official client pays only in assets it knows; a local chain's USDC must be allowed by hand.
  client.setSpendControls({ allowedAssets: [{ network: devChain.network as Network, asset: devChain.usdc }] });
  return wrapFetchWithPayment(fetch, client);
}

async function main(): Promise<void> {
  const dataDir = resolve(process.env.TOOLGATE_DATA_DIR ?? '.toolgate');
  const devChain = JSON.parse(await readFile(resolve(dataDir, 'devchain.json'), 'utf8')) as DevChainInfo;
  const baseUrl = process.env.TOOLGATE_URL ?? `http://localhost:${process.env.PORT ?? 4021}`;
  const path = process.argv[2] ?? '/api/tools/uuid';

  const response = await payingFetch(devChain)(`${baseUrl}${path}`);
  console.log(`${response.status} ${path}`);
  console.log(JSON.stringify(await response.json(), null, 2));
  const receipt = response.headers.get('payment-response');
  if (receipt) console.log('payment:', decodePaymentResponseHeader(receipt));
  if (!response.ok) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
