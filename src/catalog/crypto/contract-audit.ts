import { z } from 'zod';
import { getAddress } from 'viem';
import { baseContracts } from '../../upstream/chain/base-contracts.ts';
import { chainClient, readChain } from '../../upstream/chain/chain-client.ts';
import { tokenPairs } from '../../upstream/providers/dexscreener.ts';
import { evmAddress } from '../fields.ts';
import { defineTool } from '../tool.ts';
import { baseChainField } from './chain-param.ts';
import { findingsOf, readCodeFacts } from './contract-audit/audit-report.ts';
import type { LiquidityView } from './contract-audit/audit-report.ts';
import { verdictOf } from './contract-audit/scoring.ts';
import { simulateTrade } from './contract-audit/simulation.ts';

const DISCLAIMER = 'An automated reading of the code, storage and a simulated trade at one block: not a guarantee. Upgradeable code and owner powers can change what is true here.';

export const contractAuditTool = defineTool({
  name: 'audit_smart_contract',
  title: 'Audit a smart contract',
  description: 'Returns a security report for a token contract: vulnerabilities, honeypot check, buy/sell tax and a safety score.',
  price: '0.020',
  http: [{ method: 'GET', path: '/api/audit/contract-risk' }],
  input: z.object({
    address: evmAddress('The contract address.'),
    chain: baseChainField('Base', 'The chain the contract lives on: Base (the only one supported).'),
  }),
  example: { address: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', chain: 'Base' },
  annotations: { readOnlyHint: true, openWorldHint: true },
  async handler(input, ctx) {
    const address = getAddress(input.address.toLowerCase());
    const contracts = baseContracts.mainnet;
    const chain = chainClient(ctx.upstream, 'mainnet', ctx.signal);
    const pairsAsked = tokenPairs(ctx.upstream, 'base', address, ctx.signal);
    pairsAsked.catch(() => undefined);
    const read = await readChain(chain, async (client) => {
      const head = await client.getBlock();
      const facts = await readCodeFacts(client, address, head.number);
      const simulation = facts?.token ? await simulateTrade(client, address, contracts, head.number) : null;
      return { head, facts, simulation };
    });
    const block = { number: Number(read.head.number), timestamp: new Date(Number(read.head.timestamp) * 1000).toISOString() };
    const chainSource = { provider: chain.provider.id, name: chain.provider.name, attribution: chain.provider.attribution };
    if (!read.facts) {
      return {
        address, network: 'base', chainId: 8453, block, isContract: false,
        verdict: 'not a contract',
        note: 'no code at this address at this block: an externally owned account (a wallet) or nothing deployed; there is no contract to audit',
        score: null, findings: [], disclaimer: DISCLAIMER, sources: { chain: chainSource },
      };
    }
    const facts = read.facts;
    let liquidity: LiquidityView | null = null;
    if (facts.token) {
      const pairs = await pairsAsked;
      const onBase = pairs.value.filter((p) => p.chainId === 'base');
      const depths = onBase.map((p) => p.liquidity?.usd).filter((usd): usd is number => usd !== undefined);
      liquidity = { totalUsd: depths.length > 0 ? Math.round(depths.reduce((a, b) => a + b, 0) * 100) / 100 : null, pools: onBase.length, source: pairs.source };
    }
    const findings = findingsOf(facts, read.simulation, liquidity);
    const { score, verdict } = verdictOf(findings);
    return {
      address, network: 'base', chainId: 8453, block, isContract: true,
      verdict, score,
      findings: [...findings].sort((a, b) => b.weight - a.weight),
      code: {
        bytes: facts.own.codeBytes,
        proxy: facts.proxy ?? null,
        implementation: facts.implementation ? { address: facts.implementation.address, bytes: facts.implementationOpcodes!.codeBytes } : null,
      },
      token: facts.token,
      ownership: facts.owner === null ? { owner: null, note: 'no owner() function answered' } : { owner: facts.owner, renounced: /^0x0{40}$/.test(facts.owner) },
      capabilities: facts.capabilities,
      simulation: read.simulation,
      liquidity: liquidity ? { totalUsd: liquidity.totalUsd, pools: liquidity.pools, simulatedPool: read.simulation?.simulated ? read.simulation.pool.pairAddress : null } : null,
      disclaimer: DISCLAIMER,
      sources: { chain: chainSource, ...(liquidity ? { liquidity: liquidity.source } : {}) },
    };
  },
});
