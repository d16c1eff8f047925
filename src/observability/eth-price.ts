// The ETH price the dashboard puts the gas of settlements in USD with: TOOLGATE_ETH_PRICE_USD when
// set; otherwise, on Base and Base Sepolia, Chainlink's ETH/USD feed on Base read through the
// upstream layer (cached a few minutes); on the local chain, none unless configured (its ETH has no
// price, and tests stay off the internet).
import type { EthPrice } from '../faces/dashboard/dashboard-data.ts';
import { readEthUsd } from '../catalog/crypto/eth-usd.ts';
import type { NetworkName } from '../payments/networks.ts';
import { baseContracts } from '../upstream/chain/base-contracts.ts';
import { chainClient, readChain } from '../upstream/chain/chain-client.ts';
import type { Upstream } from '../upstream/upstream.ts';

const CACHE_MS = 5 * 60_000;
const READ_BUDGET_MS = 5_000;
/** A feed round older than this still prices gas for a dashboard, marked with its time. */
const MAX_AGE_S = 24 * 3600;

export function ethPriceSource(options: { configuredUsd: number | undefined; network: NetworkName; upstream: Upstream }): (() => Promise<EthPrice | undefined>) | undefined {
  const { configuredUsd, network, upstream } = options;
  if (configuredUsd !== undefined) {
    const fixed: EthPrice = { usd: configuredUsd, source: 'TOOLGATE_ETH_PRICE_USD' };
    return async () => fixed;
  }
  if (network === 'local') return undefined;
  let cached: { at: number; price: Promise<EthPrice | undefined> } | undefined;
  const read = async (): Promise<EthPrice | undefined> => {
    const deadline = Date.now() + READ_BUDGET_MS;
    const chain = chainClient(upstream.forCall(deadline), 'mainnet', AbortSignal.timeout(READ_BUDGET_MS));
    const reading = await readChain(chain, async (client) => {
      const head = await client.getBlock();
      return readEthUsd(client, baseContracts.mainnet.chainlinkEthUsd, { number: head.number, timestamp: head.timestamp }, MAX_AGE_S);
    });
    return reading.ok ? { usd: Number(reading.price.usd), source: `Chainlink ETH/USD on Base, updated ${reading.price.updatedAt}` } : undefined;
  };
  return () => {
    if (!cached || Date.now() - cached.at > CACHE_MS) {
      const price = read().catch(() => undefined);
      cached = { at: Date.now(), price };
    }
    return cached.price;
  };
}
