// The outside world of the crypto tools, on loopback: anvil as Base (chain id 8453, the canonical
// contracts and the planted test tokens, see base-world/README.md), optionally anvil as Base
// Sepolia, and DexScreener replayed from its recorded answers. Base reads pass through the loopback
// fixture server on their way to anvil (`/base-rpc`), so a test can put a fault in their path.
// Gives the settings that point a gateway at them, a ToolContext for calling a handler directly,
// and a paying gateway.
import type { ToolContext } from '../../src/catalog/tool.ts';
import { rawFetch } from '../../src/upstream/http/raw-fetch.ts';
import { Upstream } from '../../src/upstream/upstream.ts';
import { WebPages } from '../../src/upstream/web-pages.ts';
import type { BaseSepoliaWorld, BaseWorld } from './base-world/index.ts';
import { startBaseSepoliaWorld, startBaseWorld } from './base-world/index.ts';
import { dexscreenerAnswer, serveDexscreener, tokenPairsPath } from './dexscreener-fixtures.ts';
import type { FixtureAnswer, FixtureServer, ReceivedRequest } from './fixture-server.ts';
import { startFixtureServer } from './fixture-server.ts';
import type { TestGateway } from './gateway-harness.ts';
import { startTestGateway } from './gateway-harness.ts';
import { unlimitedProviders } from './web-fixtures.ts';

/** Where Base JSON-RPC requests reach the fixture server (override it to inject a fault). */
export const BASE_RPC_PATH = '/base-rpc';

export interface CryptoWorldOptions {
  /** false: no GasPriceOracle at its address (a chain without one). Default true. */
  gasPriceOracle?: boolean;
  /** Large and small USDC/WETH transfers in the recent blocks (for whale alerts). */
  history?: boolean;
  /** Also start a Base Sepolia stand-in (the wallet tool's other network). */
  sepolia?: boolean;
}

export interface CryptoWorld {
  world: BaseWorld;
  sepolia: BaseSepoliaWorld | undefined;
  /** DexScreener's recorded answers under /dexscreener, and POST /base-rpc passed through to the Base anvil. */
  dex: FixtureServer;
  env: Record<string, string>;
  context(overrides?: Partial<ToolContext>): ToolContext;
  gateway(): Promise<TestGateway>;
  restore(): void;
  close(): Promise<void>;
}

export async function startCryptoWorld(options: CryptoWorldOptions = {}): Promise<CryptoWorld> {
  const [world, sepolia, dex] = await Promise.all([
    startBaseWorld({ gasPriceOracle: options.gasPriceOracle ?? true, history: options.history ?? false }),
    options.sepolia ? startBaseSepoliaWorld() : Promise.resolve(undefined),
    startFixtureServer(),
  ]);
  const passToAnvil = async (request: ReceivedRequest): Promise<FixtureAnswer> => {
    const response = await fetch(world.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: request.body });
    return { status: response.status, headers: { 'content-type': 'application/json' }, body: Buffer.from(await response.arrayBuffer()) };
  };
  const restore = () => {
    dex.reset();
    serveDexscreener(dex);
    // DexScreener has never seen the planted test tokens: no pools, as it answers for any such token.
    for (const token of Object.values(world.tokens)) dex.on(tokenPairsPath(token), dexscreenerAnswer('token-pairs-empty.json'));
    dex.on(BASE_RPC_PATH, passToAnvil, 'POST');
  };
  restore();
  const baseUrls = {
    baseRpc: `${dex.origin}${BASE_RPC_PATH}`,
    // Without a Sepolia world, Sepolia reads go to a port nothing listens on: a clear 503.
    baseSepoliaRpc: sepolia?.rpcUrl ?? 'http://127.0.0.1:9',
    dexscreener: `${dex.origin}/dexscreener`,
  };
  const env: Record<string, string> = {
    TOOLGATE_BASE_RPC_URL: baseUrls.baseRpc,
    TOOLGATE_BASE_SEPOLIA_RPC_URL: baseUrls.baseSepoliaRpc,
    TOOLGATE_DEXSCREENER_URL: baseUrls.dexscreener,
    TOOLGATE_UPSTREAM_TIMEOUT_MS: '3000',
  };
  const gateways: TestGateway[] = [];
  return {
    world,
    sepolia,
    dex,
    env,
    context(overrides = {}) {
      const deadline = overrides.deadline ?? Date.now() + 15_000;
      const upstream = new Upstream(unlimitedProviders, { userAgent: 'toolgate-test', baseUrls, apiKeys: {}, timeoutMs: 3_000 }, rawFetch);
      return {
        signal: new AbortController().signal,
        now: () => new Date(),
        caller: { ip: '127.0.0.1' },
        deadline,
        upstream: upstream.forCall(deadline),
        web: new WebPages({
          policy: { allowedPorts: [80, 443], allow: [], resolve: async () => [] },
          pageMaxBytes: 1024 * 1024,
          renderer: undefined,
        }),
        ...overrides,
      };
    },
    async gateway() {
      const gateway = await startTestGateway({ env, providers: unlimitedProviders });
      gateways.push(gateway);
      return gateway;
    },
    restore,
    async close() {
      await Promise.all(gateways.map((g) => g.close()));
      await Promise.all([world.stop(), sepolia?.stop(), dex.close()]);
    },
  };
}
