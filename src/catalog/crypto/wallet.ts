import { z } from 'zod';
import { evmAddress } from '../fields.ts';
import { defineTool } from '../tool.ts';

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
});
