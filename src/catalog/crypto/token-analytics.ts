import { z } from 'zod';
import { defineTool } from '../tool.ts';

export const tokenAnalyticsTool = defineTool({
  name: 'get_token_analytics',
  title: 'Token analytics',
  description: 'Returns a token\'s price, pool depth, 24h volume and buy/sell ratios.',
  price: '0.003',
  http: [{ method: 'GET', path: '/api/crypto/token', rename: { addressOrSymbol: 'address' } }],
  input: z.object({
    addressOrSymbol: z.string().trim().min(1).max(64)
      .refine((v) => /^0x[0-9a-fA-F]{40}$/.test(v) || /^[A-Za-z0-9.$_-]{1,20}$/.test(v), {
        message: 'expected a 0x-prefixed 20-byte token address or a ticker symbol such as "USDC"',
      })
      .describe('The token\'s contract address, or its ticker symbol.'),
    chain: z.string().trim().min(1).max(40).default('base').describe('The chain the token lives on.'),
  }),
  example: { addressOrSymbol: 'USDC', chain: 'base' },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
