import { z } from 'zod';
import { baseContracts } from '../../upstream/chain/base-contracts.ts';
import { chainClient, readChain } from '../../upstream/chain/chain-client.ts';
import { defineTool } from '../tool.ts';
import { readCryptoSettings } from './crypto-settings.ts';
import { estimateGas } from './gas/gas-estimate.ts';

export const gasTool = defineTool({
  name: 'get_gas_estimate',
  title: 'Gas estimate',
  description: 'Returns recommended priority fees (fast, normal, slow, in gwei) on Base and transaction cost estimates in USD.',
  price: '0.002',
  http: [{ method: 'GET', path: '/api/crypto/gas' }],
  input: z.object({}),
  example: {},
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handler(_input, ctx) {
    const chain = chainClient(ctx.upstream, 'mainnet', ctx.signal);
    const estimate = await readChain(chain, async (client) => {
      const head = await client.getBlock();
      return estimateGas(client, baseContracts.mainnet, 8453, head, readCryptoSettings().ethUsdMaxAgeSeconds);
    });
    return {
      network: 'base',
      chainId: 8453,
      ...estimate,
      source: { provider: chain.provider.id, name: chain.provider.name, attribution: chain.provider.attribution },
    };
  },
});
