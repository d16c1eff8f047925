import { z } from 'zod';
import { defineTool } from '../tool.ts';

export const alphaSignalsTool = defineTool({
  name: 'get_alpha_signals',
  title: 'Crypto market signals',
  description: 'Returns whale alerts and market signals (trending tokens, unusual volume, boosted pools) on Base. Not financial advice.',
  price: '0.005',
  http: [{ method: 'GET', path: '/api/alpha/crypto-signals' }],
  input: z.object({}),
  example: {},
  annotations: { readOnlyHint: true, openWorldHint: true },
});
