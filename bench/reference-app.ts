// The REFERENCE stack, wired the standard way: Hono + @x402/hono paymentMiddleware over an
// x402ResourceServer whose facilitator is the official x402Facilitator + ExactEvmScheme, in-process,
// settling with one key through a plain viem wallet client (no nonce manager: that is the standard wiring).
// Run as a child process by bench/run.ts:
//   BENCH_DEVCHAIN='<devchain.json contents>' BENCH_SETTLER_KEY=0x… node --import tsx bench/reference-app.ts
// It prints "READY <port>" once it listens on 127.0.0.1.
import { randomUUID } from 'node:crypto';
import { serve } from '@hono/node-server';
import { x402ResourceServer, type FacilitatorClient } from '@x402/core/server';
import type { Network, SupportedResponse } from '@x402/core/types';
import { ExactEvmScheme as ExactEvmServerScheme } from '@x402/evm/exact/server';
import { paymentMiddleware } from '@x402/hono';
import { Hono } from 'hono';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { officialLocalFacilitator } from '../test/support/official-facilitator.ts';
import { PRICE_ATOMIC, ROUTE, type DevChain } from './chain.ts';

function localFacilitator(devChain: DevChain, settlerKey: Hex): FacilitatorClient {
  const facilitator = officialLocalFacilitator(devChain, privateKeyToAccount(settlerKey));
  // x402Facilitator.getSupported() is synchronous; FacilitatorClient wants a promise.
  return {
    verify: (payload, requirements) => facilitator.verify(payload, requirements),
    settle: (payload, requirements) => facilitator.settle(payload, requirements),
    getSupported: async () => facilitator.getSupported() as SupportedResponse,
  };
}

export function createReferenceApp(devChain: DevChain, settlerKey: Hex): Hono {
  const network = devChain.network as Network;
  const resourceServer = new x402ResourceServer(localFacilitator(devChain, settlerKey)).register(network, new ExactEvmServerScheme());
  const app = new Hono();
  app.use(
    paymentMiddleware(
      {
        [`GET ${ROUTE}`]: {
          accepts: {
            scheme: 'exact',
            network,
            payTo: devChain.payTo,
            price: { amount: PRICE_ATOMIC, asset: devChain.usdc, extra: { name: 'USD Coin', version: '2' } },
          },
          description: 'A random UUID',
          mimeType: 'application/json',
        },
      },
      resourceServer,
    ),
  );
  app.get(ROUTE, (c) => c.json({ uuid: randomUUID() }));
  return app;
}

function main(): void {
  const raw = process.env.BENCH_DEVCHAIN;
  const settlerKey = process.env.BENCH_SETTLER_KEY;
  if (!raw || !settlerKey) throw new Error('reference-app: set BENCH_DEVCHAIN and BENCH_SETTLER_KEY');
  const app = createReferenceApp(JSON.parse(raw) as DevChain, settlerKey as Hex);
  const server = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: Number(process.env.PORT ?? 0) }, (info) => {
    console.log(`READY ${info.port}`);
  });
  process.once('SIGTERM', () => server.close(() => process.exit(0)));
}

if (process.argv[1]?.endsWith('reference-app.ts')) main();
