// Starts a real gateway for a test: a local anvil with Circle's USDC, the embedded facilitator,
// an in-memory ledger (or the PostgreSQL of TOOLGATE_DATABASE_URL), listening on a loopback port.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Tool } from '../../src/catalog/tool.ts';
import type { DevChain } from '../../src/chain/devchain.ts';
import { startDevChain } from '../../src/chain/devchain.ts';
import { loadConfig } from '../../src/config.ts';
import type { Gateway, GatewayOverrides } from '../../src/gateway.ts';
import { createGateway } from '../../src/gateway.ts';

export interface TestGateway {
  baseUrl: string;
  gateway: Gateway;
  devChain: DevChain;
  close(): Promise<void>;
}

export interface TestGatewayOptions {
  catalog?: readonly Tool[];
  env?: Record<string, string>;
  /** Reuse a running chain; otherwise one is started and stopped with the gateway. */
  devChain?: DevChain;
  facilitator?: GatewayOverrides['facilitator'];
  resolveHost?: GatewayOverrides['resolveHost'];
  providers?: GatewayOverrides['providers'];
}

export async function startTestGateway(options: TestGatewayOptions = {}): Promise<TestGateway> {
  const ownChain = !options.devChain;
  const devChain = options.devChain ?? (await startDevChain({ tokenName: 'USD Coin' }));
  const dataDir = await mkdtemp(join(tmpdir(), 'toolgate-test-'));
  const config = loadConfig({
    TOOLGATE_DATA_DIR: dataDir,
    ...(options.env?.TOOLGATE_DATABASE_URL ? {} : { TOOLGATE_LEDGER: 'memory' }),
    TOOLGATE_LOG_LEVEL: 'silent',
    TOOLGATE_PUBLIC_BASE_URL: 'http://gateway.test',
    ...options.env,
  });
  const gateway = await createGateway(config, {
    devChain,
    ...(options.catalog ? { catalog: options.catalog } : {}),
    ...(options.facilitator ? { facilitator: options.facilitator } : {}),
    ...(options.resolveHost ? { resolveHost: options.resolveHost } : {}),
    ...(options.providers ? { providers: options.providers } : {}),
  });
  const baseUrl = await gateway.app.listen({ port: 0, host: '127.0.0.1' });
  return {
    baseUrl,
    gateway,
    devChain,
    async close() {
      await gateway.close();
      if (ownChain) await devChain.stop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}
