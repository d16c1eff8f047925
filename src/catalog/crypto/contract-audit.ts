import { z } from 'zod';
import { evmAddress } from '../fields.ts';
import { defineTool } from '../tool.ts';

export const contractAuditTool = defineTool({
  name: 'audit_smart_contract',
  title: 'Audit a smart contract',
  description: 'Returns a security report for a token contract: vulnerabilities, honeypot check, buy/sell tax and a safety score.',
  price: '0.020',
  http: [{ method: 'GET', path: '/api/audit/contract-risk' }],
  input: z.object({
    address: evmAddress('The contract address.'),
    chain: z.string().trim().min(1).max(40).default('Base').describe('The chain the contract lives on.'),
  }),
  example: { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', chain: 'Base' },
  annotations: { readOnlyHint: true, openWorldHint: true },
});
