import { z } from 'zod';
import { defineTool } from '../tool.ts';

export const gasTool = defineTool({
  name: 'get_gas_estimate',
  title: 'Gas estimate',
  description: 'Returns recommended priority fees (fast, normal, slow, in gwei) on Base and transaction cost estimates in USD.',
  price: '0.002',
  http: [{ method: 'GET', path: '/api/crypto/gas' }],
  input: z.object({}),
  example: {},
  annotations: { readOnlyHint: true, openWorldHint: true },
});
