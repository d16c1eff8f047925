import { z } from 'zod';
import { baseContracts } from '../../upstream/chain/base-contracts.ts';
import { chainClient, readChain } from '../../upstream/chain/chain-client.ts';
import { pairsOfTokens, topBoostedTokens } from '../../upstream/providers/dexscreener.ts';
import { defineTool } from '../tool.ts';
import { FLOORS, MOVER_CHANGE_PERCENT, SPIKE_MIN_H1_USD, SPIKE_RATIO, baseBoosts, marketSignals } from './alpha-signals/market-signals.ts';
import { BLOCKS_PER_REQUEST, MAX_ALERTS, MAX_LOGS_SCANNED, scanWhaleTransfers } from './alpha-signals/whale-transfers.ts';
import { readCryptoSettings } from './crypto-settings.ts';
import { readEthUsd } from './eth-usd.ts';

const contracts = baseContracts.mainnet;

export const alphaSignalsTool = defineTool({
  name: 'get_alpha_signals',
  title: 'Crypto market signals',
  description: 'Returns whale alerts and market signals (trending tokens, unusual volume, boosted pools) on Base. Not financial advice.',
  price: '0.005',
  http: [{ method: 'GET', path: '/api/alpha/crypto-signals' }],
  input: z.object({}),
  example: {},
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handler(_input, ctx) {
    const settings = readCryptoSettings();
    // DexScreener is asked while the chain is read; either failing fails the call, uncharged.
    const marketAsked = (async () => {
      const boosts = await topBoostedTokens(ctx.upstream, ctx.signal);
      const boosted = baseBoosts(boosts.value);
      const pairs = boosted.length > 0 ? await pairsOfTokens(ctx.upstream, 'base', boosted.map((b) => b.tokenAddress), ctx.signal) : undefined;
      return { boosted, pairs: pairs?.value ?? [], sources: [boosts.source, ...(pairs ? [pairs.source] : [])] };
    })();
    marketAsked.catch(() => undefined);

    const chain = chainClient(ctx.upstream, 'mainnet', ctx.signal);
    const whales = await readChain(chain, async (client) => {
      const head = await client.getBlock();
      const ethUsd = await readEthUsd(client, contracts.chainlinkEthUsd, { number: head.number, timestamp: head.timestamp }, settings.ethUsdMaxAgeSeconds);
      const window = BigInt(settings.alphaWindowBlocks);
      const fromBlock = head.number >= window ? head.number - window + 1n : 0n;
      const scan = await scanWhaleTransfers(
        client,
        [
          { symbol: 'USDC', address: contracts.usdc, decimals: 6 },
          { symbol: 'WETH', address: contracts.weth, decimals: 18 },
        ],
        { fromBlock, toBlock: head.number },
        settings.whaleMinUsd,
        ethUsd.ok ? ethUsd.price : undefined,
      );
      return { head, fromBlock, ethUsd, scan };
    });
    const market = await marketAsked;

    return {
      network: 'base',
      chainId: 8453,
      generatedAt: ctx.now().toISOString(),
      disclaimer: 'Facts, not advice: on-chain transfers and DEX market figures as read, with no recommendation to buy or sell anything.',
      whaleAlerts: {
        window: {
          fromBlock: Number(whales.fromBlock),
          toBlock: Number(whales.head.number),
          toBlockTime: new Date(Number(whales.head.timestamp) * 1000).toISOString(),
          blocks: settings.alphaWindowBlocks,
        },
        threshold: {
          minUsd: settings.whaleMinUsd,
          tokens: ['USDC at 1 USD', 'WETH at the Chainlink ETH/USD answer'],
          ethUsd: whales.ethUsd.ok ? { usd: whales.ethUsd.price.usd, updatedAt: whales.ethUsd.price.updatedAt, stale: whales.ethUsd.price.stale } : null,
        },
        alerts: whales.scan.alerts,
        logsScanned: whales.scan.logsScanned,
        complete: whales.scan.complete,
        limits: { blocksPerRequest: BLOCKS_PER_REQUEST, maxLogsScanned: MAX_LOGS_SCANNED, maxAlerts: MAX_ALERTS },
        notes: whales.scan.notes,
        source: { provider: chain.provider.id, name: chain.provider.name, attribution: chain.provider.attribution },
      },
      marketSignals: {
        rules: {
          boosted_token: 'one of the Base tokens with the most active DexScreener boosts (paid promotion), with its deepest pool',
          price_mover: `a boosted token whose deepest pool moved at least ${MOVER_CHANGE_PERCENT}% in 24 h`,
          volume_spike: `a boosted token whose deepest pool traded at least ${SPIKE_RATIO}x its 24 h hourly average in the last hour (and at least ${SPIKE_MIN_H1_USD} USD)`,
          floors: `movers and spikes only for pools with at least ${FLOORS.liquidityUsd} USD of liquidity and ${FLOORS.volume24hUsd} USD of 24 h volume`,
        },
        signals: marketSignals(market.boosted, market.pairs),
        sources: market.sources,
      },
    };
  },
});
