// The chain tools' latency against anvil standing in for Base, each next to a REFERENCE measured in
// the same run: the same reads (the tool's own read function) through a plain viem client with its
// http transport straight to the node — no upstream layer (limiter, retries, per-block cache,
// error mapping), no tool around it. Cold = a new block before every call (nothing cached can
// answer); warm = the same head block again (reads pinned to it come from the cache; the head is
// always asked). Writes bench/results/crypto-latest.json and its section of docs/benchmarks.md.
//   npm run bench:crypto
import { writeFile } from 'node:fs/promises';
import { createPublicClient, http } from 'viem';
import type { PublicClient } from 'viem';
import { base } from 'viem/chains';
import { catalog } from '../src/catalog/index.ts';
import type { ToolContext } from '../src/catalog/tool.ts';
import { estimateGas } from '../src/catalog/crypto/gas/gas-estimate.ts';
import { readWallet } from '../src/catalog/crypto/wallet/wallet-reading.ts';
import { loadConfig } from '../src/config.ts';
import { silentLogger } from '../src/log.ts';
import { baseContracts } from '../src/upstream/chain/base-contracts.ts';
import { createToolServices } from '../src/upstream/tool-services.ts';
import type { ToolServices } from '../src/upstream/tool-services.ts';
import { startBaseWorld } from '../test/support/base-world/index.ts';
import { unlimitedProviders } from '../test/support/web-fixtures.ts';
import { writeSection } from './doc-section.ts';
import type { Stats } from './latency-stats.ts';
import { stats } from './latency-stats.ts';
import { describeMachine } from './report.ts';

const CALLS = Number(process.env.BENCH_CRYPTO_CALLS ?? 200);
const WARMUP = 5;

/** Times `run` only; `before` (mining a block) happens outside the measured span. */
async function time(run: () => Promise<unknown>, before?: () => Promise<unknown>): Promise<Stats> {
  for (let i = 0; i < WARMUP; i += 1) await run();
  const samples: number[] = [];
  for (let i = 0; i < CALLS; i += 1) {
    await before?.();
    const started = performance.now();
    await run();
    samples.push(performance.now() - started);
  }
  return stats(samples);
}

function contextFor(services: ToolServices): ToolContext {
  const deadline = Date.now() + 30_000;
  return {
    signal: new AbortController().signal, now: () => new Date(), caller: { ip: '127.0.0.1' }, deadline,
    upstream: services.upstream.forCall(deadline), web: services.web,
  };
}

function handlerOf(name: string) {
  const tool = catalog.find((t) => t.name === name);
  if (!tool?.handler) throw new Error(`${name} has no handler`);
  return (services: ToolServices, input: Record<string, unknown>) => tool.handler!(tool.input.parse(input) as Record<string, unknown>, contextFor(services));
}

interface Row {
  scenario: string;
  tool: Stats;
  reference: Stats;
}

async function main(): Promise<void> {
  const startedAt = performance.now();
  const machine = describeMachine();
  const world = await startBaseWorld();
  const services = createToolServices(loadConfig({ TOOLGATE_LOG_LEVEL: 'silent', TOOLGATE_BASE_RPC_URL: world.rpcUrl }), silentLogger, { providers: unlimitedProviders });
  const plain = createPublicClient({ chain: { ...base, contracts: { ...base.contracts, multicall3: { address: base.contracts.multicall3.address } } }, transport: http(world.rpcUrl), batch: { multicall: { wait: 0 } } }) as PublicClient;
  const mine = () => world.mine(1);
  const gas = handlerOf('get_gas_estimate');
  const wallet = handlerOf('get_wallet_portfolio');
  const address = world.wallets.eoa.address;
  const gasReference = async () => estimateGas(plain, baseContracts.mainnet, 8453, await plain.getBlock(), 3_600);
  const walletReference = () => readWallet(plain, 'mainnet', baseContracts.mainnet, address, 3_600);
  const rows: Row[] = [];
  try {
    const scenarios = [
      { scenario: 'get_gas_estimate, cold (a new block each call)', tool: () => gas(services, {}), reference: gasReference, before: mine },
      { scenario: 'get_gas_estimate, warm (same block)', tool: () => gas(services, {}), reference: gasReference },
      { scenario: 'get_wallet_portfolio, cold (a new block each call)', tool: () => wallet(services, { address }), reference: walletReference, before: mine },
      { scenario: 'get_wallet_portfolio, warm (same block)', tool: () => wallet(services, { address }), reference: walletReference },
    ];
    for (const s of scenarios) {
      const tool = await time(s.tool, s.before);
      const reference = await time(s.reference, s.before);
      rows.push({ scenario: s.scenario, tool, reference });
      console.log(`${s.scenario.padEnd(52)} tool p50 ${tool.p50} ms p99 ${tool.p99} ms | reference p50 ${reference.p50} ms p99 ${reference.p99} ms`);
    }
    const results = { machine, rows, totalSeconds: Math.round((performance.now() - startedAt) / 1000) };
    await writeFile(new URL('./results/crypto-latest.json', import.meta.url), `${JSON.stringify(results, null, 2)}\n`);
    await writeSection(new URL('../docs/benchmarks.md', import.meta.url).pathname, MARKERS, section(results), (s) => s, '## Chain tools');
  } finally {
    await services.close();
    await world.stop();
  }
}

const MARKERS = { begin: '<!-- crypto-bench:start -->', end: '<!-- crypto-bench:end -->' };

function section(results: { machine: ReturnType<typeof describeMachine>; rows: Row[]; totalSeconds: number }): string {
  const { machine, rows } = results;
  const ms = (s: Stats) => `${s.p50} / ${s.p99}`;
  return [
    MARKERS.begin,
    '_Generated by `npm run bench:crypto`; edit outside the markers._',
    '',
    `Run: ${machine.date} · ${machine.cpus} vCPU (${machine.cpuModel}) · ${machine.memoryGiB} GiB · Node ${machine.node} · commit ${machine.commit} · load average at start ${machine.loadAverageAtStart} · whole run ${results.totalSeconds} s`,
    '',
    'anvil on the same machine stands in for Base (test/support/base-world). Reference: the same read function through a plain viem http client, no upstream layer and no cache.',
    '',
    '| scenario | calls | toolgate tool (ms, p50 / p99) | reference (ms, p50 / p99) | tool − reference (p50) |',
    '|---|---|---|---|---|',
    ...rows.map((r) => `| ${r.scenario} | ${r.tool.calls} | ${ms(r.tool)} | ${ms(r.reference)} | ${Math.round((r.tool.p50 - r.reference.p50) * 100) / 100} |`),
    MARKERS.end,
  ].join('\n');
}

await main();
