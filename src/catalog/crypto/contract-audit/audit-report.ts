// The audit of one address at one block: code and proxies, capabilities and ownership, opcodes,
// a simulated buy and sell, liquidity, and the findings that make the score. Every finding says
// what shows it.
import { getAddress, parseAbi, zeroAddress } from 'viem';
import type { Address, Hex, PublicClient } from 'viem';
import { providerFailureIn } from '../../../upstream/chain/chain-client.ts';
import type { Erc20Metadata } from '../erc20-metadata.ts';
import { readErc20Metadata } from '../erc20-metadata.ts';
import { scanOpcodes } from './bytecode.ts';
import type { OpcodeFindings } from './bytecode.ts';
import type { Capability, CapabilityId } from './capabilities.ts';
import { capabilitiesOf, selectorsOf } from './capabilities.ts';
import type { ProxyFinding } from './proxies.ts';
import { findProxy } from './proxies.ts';
import type { Finding } from './scoring.ts';
import { THIN_LIQUIDITY_USD, WEIGHTS } from './scoring.ts';
import type { Simulation } from './simulation.ts';

const ownerAbi = parseAbi(['function owner() view returns (address)']);

export interface LiquidityView {
  totalUsd: number | null;
  pools: number;
  source: unknown;
}

export interface CodeFacts {
  address: Address;
  proxy: ProxyFinding | undefined;
  implementation: { address: Address; code: Hex } | undefined;
  own: OpcodeFindings;
  implementationOpcodes: OpcodeFindings | undefined;
  capabilities: Capability[];
  owner: Address | null;
  token: Erc20Metadata | null;
}

async function ownerOf(client: PublicClient, address: Address, blockNumber: bigint): Promise<Address | null> {
  try {
    return getAddress(await client.readContract({ address, abi: ownerAbi, functionName: 'owner', blockNumber }));
  } catch (error) {
    const failure = providerFailureIn(error);
    if (failure) throw failure;
    return null;
  }
}

/** What the code says, or undefined when there is no code at the address. */
export async function readCodeFacts(client: PublicClient, address: Address, blockNumber: bigint): Promise<CodeFacts | undefined> {
  const code = await client.getCode({ address, blockNumber });
  if (code === undefined || code === '0x') return undefined;
  const proxy = await findProxy(client, address, code, blockNumber);
  const implementationCode = proxy ? await client.getCode({ address: proxy.implementation, blockNumber }) : undefined;
  const implementation = proxy && implementationCode && implementationCode !== '0x' ? { address: proxy.implementation, code: implementationCode } : undefined;
  const selectors = new Set([...selectorsOf(code), ...(implementation ? selectorsOf(implementation.code) : [])]);
  const [owner, token] = await Promise.all([ownerOf(client, address, blockNumber), readErc20Metadata(client, address, blockNumber)]);
  return {
    address,
    proxy,
    implementation,
    own: scanOpcodes(code),
    implementationOpcodes: implementation ? scanOpcodes(implementation.code) : undefined,
    capabilities: capabilitiesOf([...selectors]),
    owner,
    token: token.ok ? token.token : null,
  };
}

const POWERS: readonly { id: CapabilityId; weight: number; severity: Finding['severity']; title: string }[] = [
  { id: 'mint', weight: WEIGHTS.mint, severity: 'high', title: 'new tokens can be minted' },
  { id: 'blacklist', weight: WEIGHTS.blacklist, severity: 'high', title: 'addresses can be blacklisted from transferring' },
  { id: 'pause', weight: WEIGHTS.pause, severity: 'medium', title: 'transfers can be paused' },
  { id: 'fees', weight: WEIGHTS.fees, severity: 'medium', title: 'a fee or tax can be set' },
  { id: 'trading', weight: WEIGHTS.trading, severity: 'medium', title: 'trading can be switched on (or off)' },
  { id: 'limits', weight: WEIGHTS.limits, severity: 'low', title: 'transaction or wallet size can be limited' },
];

export function findingsOf(facts: CodeFacts, simulation: Simulation | null, liquidity: LiquidityView | null): Finding[] {
  const findings: Finding[] = [];
  const renounced = facts.owner === zeroAddress;

  if (simulation?.simulated) {
    if (simulation.honeypot) {
      findings.push({ id: 'honeypot', severity: 'critical', weight: WEIGHTS.honeypot, title: 'selling reverts: a honeypot (bought tokens cannot be sold)', evidence: { pool: simulation.pool, amountInWei: simulation.amountInWei, sell: simulation.sell } });
    }
    for (const [side, leg] of [['buy', simulation.buy], ['sell', simulation.sell]] as const) {
      const tax = leg?.taxPercent;
      if (tax === null || tax === undefined || tax < 1) continue;
      findings.push({
        id: `${side}-tax`, severity: tax > 10 ? 'high' : 'medium', weight: tax > 10 ? WEIGHTS.taxHigh : WEIGHTS.taxSome,
        title: `${side} tax of ${tax}% (received less than the router quoted)`, evidence: { quote: leg!.quote, received: leg!.received, taxPercent: tax, pool: simulation.pool.pairAddress },
      });
    }
    if (!simulation.buy.ok) findings.push({ id: 'buy-reverts', severity: 'unknown', weight: WEIGHTS.notSimulated, title: 'the simulated buy reverted: trading may be closed', evidence: { revert: simulation.buy.revert } });
  } else if (facts.token) {
    findings.push({ id: 'not-simulated', severity: 'unknown', weight: WEIGHTS.notSimulated, title: 'buy and sell could not be simulated', evidence: { reason: simulation?.reason ?? 'not attempted' } });
  }

  for (const power of POWERS) {
    const capability = facts.capabilities.find((c) => c.id === power.id);
    if (!capability) continue;
    findings.push(
      renounced
        ? { id: power.id, severity: 'info', weight: 0, title: `${power.title}, by functions the renounced owner can no longer call (other roles, if any, still can)`, evidence: { functions: capability.functions, owner: facts.owner } }
        : { id: power.id, severity: power.severity, weight: power.weight, title: power.title, evidence: { functions: capability.functions, owner: facts.owner } },
    );
  }

  if (facts.proxy) {
    if (facts.proxy.kind === 'EIP-1167') {
      findings.push({ id: 'minimal-proxy', severity: 'info', weight: 0, title: 'an EIP-1167 minimal proxy: fixed forever to one implementation (analysed here)', evidence: { implementation: facts.proxy.implementation, ...facts.proxy.evidence } });
    } else {
      const admin = facts.proxy.admin;
      findings.push({ id: 'upgradeable', severity: 'high', weight: WEIGHTS.upgradeable, title: `an upgradeable ${facts.proxy.kind} proxy: its code can be replaced`, evidence: { implementation: facts.proxy.implementation, admin, ...facts.proxy.evidence } });
    }
  } else {
    const upgrade = facts.capabilities.find((c) => c.id === 'upgrade');
    if (upgrade) findings.push({ id: 'upgradeable', severity: 'high', weight: WEIGHTS.upgradeable, title: 'upgrade functions are present', evidence: { functions: upgrade.functions } });
  }

  const logic = facts.implementationOpcodes ?? facts.own;
  const selfdestruct = [...facts.own.selfdestructAt, ...(facts.implementationOpcodes?.selfdestructAt ?? [])];
  if (selfdestruct.length > 0) findings.push({ id: 'selfdestruct', severity: 'high', weight: WEIGHTS.selfdestruct, title: 'SELFDESTRUCT in the code', evidence: { offsets: selfdestruct } });
  if (logic.delegatecallAt.length > 0) {
    findings.push({ id: 'delegatecall', severity: 'medium', weight: WEIGHTS.delegatecall, title: `DELEGATECALL in the ${facts.implementationOpcodes ? 'implementation' : 'contract'}: it can run other code with its own storage`, evidence: { offsets: logic.delegatecallAt } });
  }
  if (facts.owner !== null && !renounced) {
    findings.push({ id: 'owner', severity: 'low', weight: WEIGHTS.ownerNotRenounced, title: 'ownership is held, not renounced', evidence: { owner: facts.owner } });
  }

  if (facts.token && liquidity) {
    if (liquidity.pools === 0) findings.push({ id: 'no-liquidity-data', severity: 'unknown', weight: WEIGHTS.noLiquidityData, title: 'DexScreener lists no pool of this token on Base', evidence: { source: liquidity.source } });
    else if (liquidity.totalUsd !== null && liquidity.totalUsd < THIN_LIQUIDITY_USD) {
      findings.push({ id: 'thin-liquidity', severity: 'medium', weight: WEIGHTS.thinLiquidity, title: `under ${THIN_LIQUIDITY_USD} USD of liquidity`, evidence: { totalUsd: liquidity.totalUsd, pools: liquidity.pools } });
    }
  }
  return findings;
}

