// The official x402 facilitator (@x402/core x402Facilitator + @x402/evm exact scheme), served over
// HTTP on loopback against our local chain: an independent implementation for interop tests.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { PaymentPayload, PaymentRequirements } from '@x402/core/types';
import { mnemonicToAccount } from 'viem/accounts';
import { ANVIL_MNEMONIC } from '../../src/chain/dev-accounts.ts';
import type { DevChain } from '../../src/chain/devchain.ts';
import { officialLocalFacilitator } from './official-facilitator.ts';

/** Anvil account #7: not one of toolgate's roles, so its transactions never collide with ours. */
const REFERENCE_SETTLER_INDEX = 7;

export interface ReferenceFacilitator {
  url: string;
  requests: string[];
  close(): Promise<void>;
}

export async function startReferenceFacilitator(chain: DevChain): Promise<ReferenceFacilitator> {
  const facilitator = officialLocalFacilitator(chain, mnemonicToAccount(ANVIL_MNEMONIC, { addressIndex: REFERENCE_SETTLER_INDEX }));
  const requests: string[] = [];

  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      requests.push(`${req.method} ${req.url}`);
      const answer = async (): Promise<unknown> => {
        if (req.method === 'GET' && req.url === '/supported') return facilitator.getSupported();
        const { paymentPayload, paymentRequirements } = JSON.parse(body) as { paymentPayload: PaymentPayload; paymentRequirements: PaymentRequirements };
        if (req.url === '/verify') return facilitator.verify(paymentPayload, paymentRequirements);
        if (req.url === '/settle') return facilitator.settle(paymentPayload, paymentRequirements);
        throw new Error(`no route ${req.url}`);
      };
      answer().then(
        (result) => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify(result));
        },
        (error: unknown) => {
          res.writeHead(500, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: String(error) }));
        },
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
