import { z } from 'zod';
import { getAddress } from 'viem';
import { baseContracts } from '../../upstream/chain/base-contracts.ts';
import { chainClient, readChain } from '../../upstream/chain/chain-client.ts';
import { evmAddress } from '../fields.ts';
import { defineTool } from '../tool.ts';
import { readCryptoSettings } from './crypto-settings.ts';
import { readWallet } from './wallet/wallet-reading.ts';

export const walletTool = defineTool({
  name: 'get_wallet_portfolio',
  title: 'Wallet portfolio',
  description: 'Returns a wallet\'s native ETH and USDC balances, transaction count and portfolio valuation.',
  price: '0.005',
  http: [{ method: 'GET', path: '/api/crypto/wallet' }],
  input: z.object({
    address: evmAddress('The wallet address.'),
    network: z.enum(['mainnet', 'sepolia']).default('mainnet').describe('mainnet (Base) or sepolia (Base Sepolia).'),
  }),
  example: { address: '0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045', network: 'mainnet' },
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handler(input, ctx) {
    const chain = chainClient(ctx.upstream, input.network, ctx.signal);
    const wallet = await readChain(chain, (client) =>
      readWallet(client, input.network, baseContracts[input.network], getAddress(input.address.toLowerCase()), readCryptoSettings().ethUsdMaxAgeSeconds),
    );
    return { ...wallet, source: { provider: chain.provider.id, name: chain.provider.name, attribution: chain.provider.attribution } };
  },
});
