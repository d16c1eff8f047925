// Results: the console table, bench/results/latest.json, and the generated part of docs/benchmarks.md
// (between markers; the hand-written reading outside them survives re-runs).
import { execFileSync } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, platform, release, totalmem } from 'node:os';
import { dirname } from 'node:path';
import type { BenchConfig } from './config.ts';
import type { CpuUse } from './cpu.ts';
import { writeSection } from './doc-section.ts';
import type { Memory } from './memory.ts';
import { PAID_WARMUP_CALLS, type PaidResult } from './paid-load.ts';
import type { UnpaidResult } from './unpaid-load.ts';

export interface Machine {
  cpus: number;
  cpuModel: string;
  memoryGiB: number;
  node: string;
  os: string;
  date: string;
  commit: string;
  /** 1-minute load average when the bench started: a busy machine shows here first. */
  loadAverageAtStart: number;
}

export interface PaidRow extends PaidResult {
  /** Payments that actually moved USDC to payTo during the run (balance delta / price), or null if unread. */
  settledOnChain: number | null;
  cpu: CpuUse | undefined;
}

export interface UnpaidRow extends UnpaidResult {
  cpu: CpuUse | undefined;
}

export interface BenchResults {
  machine: Machine;
  config: BenchConfig;
  toolgate: { measured: boolean; note?: string };
  chain: { source: 'toolgate' | 'bench'; rpcUrl: string; usdc: string };
  unpaid: UnpaidRow[];
  paid: PaidRow[];
  warmupProblems: Record<string, string[]>;
  /** Each server's process group at the end of the run (toolgate's includes its anvil). */
  memory: Record<string, Memory | undefined>;
  /** toolgate's memory after its start and warm-up, before the measurements. */
  toolgateAfterWarmUp?: Memory;
  totalSeconds: number;
}

export const TARGET = { bare: 'bare node:http', reference: 'reference (Hono + @x402/hono)', toolgate: 'toolgate' } as const;

export function describeMachine(): Machine {
  let commit = 'unknown';
  try {
    commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
    if (dirty) commit += ' (with uncommitted changes)';
  } catch {
    // not a git checkout
  }
  return {
    cpus: availableParallelism(),
    cpuModel: cpus()[0]?.model.trim() ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    os: `${platform()} ${release()}`,
    date: new Date().toISOString(),
    commit,
    loadAverageAtStart: Number((loadavg()[0] ?? 0).toFixed(2)),
  };
}

/** Share of one core used outside the bench during a measurement above which the row is flagged. */
export const NOISY_PCT = 25;
export const noisy = (cpu: CpuUse | undefined) => (cpu && cpu.outside >= NOISY_PCT ? ' ⚠' : '');
/** The load generator itself ran out of CPU: the server's figure is then a lower bound. */
export const GENERATOR_BOUND_PCT = 95;
export const generatorBound = (cpu: CpuUse | undefined) => (cpu && cpu.harness >= GENERATOR_BOUND_PCT ? ' ‡' : '');
export const int = (n: number) => (Number.isFinite(n) ? Math.round(n).toLocaleString('en-US') : '–');
export const dec = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : '–');
export const ratio = (a: number | undefined, b: number | undefined) => (a !== undefined && b !== undefined && b > 0 ? `${(a / b).toFixed(2)}×` : '–');

function unpaidRows(results: BenchResults): string[][] {
  const find = (name: string) => results.unpaid.find((u) => u.target === name);
  const bare = find(TARGET.bare)?.requestsPerSecond;
  const reference = find(TARGET.reference)?.requestsPerSecond;
  return results.unpaid.map((u) => {
    const other = Object.entries(u.otherStatuses).map(([code, n]) => `${n}×${code}`);
    if (u.errors) other.push(`${u.errors} errors`);
    if (u.timeouts) other.push(`${u.timeouts} timeouts`);
    return [
      u.target + noisy(u.cpu) + generatorBound(u.cpu),
      int(u.requestsPerSecond),
      dec(u.latencyMs.p50),
      dec(u.latencyMs.p99),
      ratio(u.requestsPerSecond, bare),
      u.target === TARGET.reference ? '1.00×' : u.target === TARGET.bare ? '–' : ratio(u.requestsPerSecond, reference),
      other.join(', ') || '0',
      u.cpu ? `${u.cpu.server} / ${u.cpu.harness} / ${u.cpu.otherBench} / ${u.cpu.outside}` : '–',
    ];
  });
}

function paidRows(results: BenchResults): string[][] {
  return results.paid.map((p) => {
    const reference = results.paid.find((r) => r.payers === p.payers && r.target === TARGET.reference);
    return [
      String(p.payers),
      p.target + noisy(p.cpu),
      dec(p.paidCallsPerSecond),
      dec(p.latencyMs.p50, 0),
      dec(p.latencyMs.p99, 0),
      `${dec(p.failurePercent)} %`,
      `${p.succeeded}/${p.calls}`,
      p.settledOnChain === null ? '–' : String(p.settledOnChain),
      p.target === TARGET.toolgate ? ratio(p.paidCallsPerSecond, reference?.paidCallsPerSecond) : '',
      p.cpu ? `${p.cpu.server} / ${p.cpu.chain} / ${p.cpu.harness} / ${p.cpu.otherBench} / ${p.cpu.outside}` : '–',
    ];
  });
}

const UNPAID_HEAD = ['target', '402/s', 'p50 ms', 'p99 ms', '÷ bare', '÷ reference', 'not 402', 'CPU % server / load gen / idle / outside'];
const PAID_HEAD = ['payers', 'target', 'paid/s', 'p50 ms', 'p99 ms', 'failed', 'ok/calls', 'settled on chain', 'toolgate ÷ ref', 'CPU % server / anvil / clients / idle / outside'];

export function textTable(head: string[], rows: string[][], textColumns: number): string {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) => cells.map((c, i) => (i < textColumns ? c.padEnd(widths[i] ?? 0) : c.padStart(widths[i] ?? 0))).join('  ');
  return [line(head), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function markdownTable(head: string[], rows: string[][], textColumns: number): string {
  const align = head.map((_, i) => (i < textColumns ? '---' : '---:'));
  return [head, align, ...rows].map((r) => `| ${r.join(' | ')} |`).join('\n');
}

function failureLines(results: BenchResults): string[] {
  return results.paid
    .filter((p) => p.failed > 0)
    .map((p) => {
      const reasons = Object.entries(p.failures)
        .sort((a, b) => b[1] - a[1])
        .map(([reason, n]) => {
          const details = Object.entries(p.failureDetails[reason] ?? {})
            .sort((a, b) => b[1] - a[1])
            .slice(0, 3)
            .map(([detail, k]) => `${k}× "${detail}"`);
          return `${n}× ${reason}${details.length ? ` (${details.join(', ')})` : ''}`;
        });
      return `${p.target}, ${p.payers} payer(s): ${reasons.join('; ')}`;
    });
}

export const NOISE_NOTE = `⚠ = processes outside the bench used ≥ ${NOISY_PCT} % of a core during that measurement: treat the row as disturbed.`;
export const CPU_NOTE =
  'CPU % is percent of one core over the measured window (server: the measured process group without anvil; load gen / clients: the bench process itself; idle: the bench\'s other servers, not under load; outside: everything else on the machine).';

export const GENERATOR_NOTE = `‡ = the load generator (one autocannon thread in the bench process) used ≥ ${GENERATOR_BOUND_PCT} % of its core: that row measures the generator as much as the server, so it is a lower bound.`;

function anyGeneratorBound(r: BenchResults): boolean {
  return r.unpaid.some((row) => generatorBound(row.cpu) !== '');
}

function anyNoisy(r: BenchResults): boolean {
  return [...r.unpaid, ...r.paid].some((row) => noisy(row.cpu) !== '');
}

export function printReport(results: BenchResults): void {
  console.log('\n402 path (unpaid GET, autocannon)');
  console.log(textTable(UNPAID_HEAD, unpaidRows(results), 1));
  console.log('\nPaid calls end to end (official @x402/fetch client, anvil)');
  console.log(textTable(PAID_HEAD, paidRows(results), 2));
  const failures = failureLines(results);
  if (failures.length) console.log(`\nFailures:\n${failures.map((f) => `  ${f}`).join('\n')}`);
  console.log(`\n${CPU_NOTE}`);
  if (anyNoisy(results)) console.log(NOISE_NOTE);
  if (anyGeneratorBound(results)) console.log(GENERATOR_NOTE);
  const memory = Object.entries(results.memory).map(([t, m]) => `${t} ${m ? `${m.rssMiB} / ${m.leaderPeakMiB}` : '–'}`);
  console.log(`Memory, RSS of group / peak of main process (MiB): ${memory.join(' · ')}`);
  console.log(toolgateMemoryLine(results));
  if (!results.toolgate.measured) console.log(`\ntoolgate NOT measured: ${results.toolgate.note ?? ''}`);
}

export async function writeJson(file: string, results: object): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  await writeFile(file, `${JSON.stringify(results, null, 2)}\n`);
}

const BEGIN = '<!-- bench:begin (generated by `npm run bench`; edit outside these markers) -->';
const END = '<!-- bench:end -->';

function methodLines(r: BenchResults): string[] {
  const c = r.config;
  return [
    '### Method',
    '',
    `- One run of \`npm run bench\` on loopback (127.0.0.1). Every server runs as its own child process (the reference and the bare server through \`node --import tsx\`); the load generator and the paying clients run in the bench process. Nothing is pinned to a CPU.`,
    `- **toolgate**: ${c.toolgateBuild === 'compiled' ? '\`npm run build\`, then the command of \`npm run start:prod\` (plain node with its V8 flags, as in production, no TypeScript loader)' : '\`node --import tsx src/main.ts\` (BENCH_TOOLGATE_BUILD=source)'}, with only \`PORT\` and a fresh \`TOOLGATE_DATA_DIR\` (local mode: it starts anvil, deploys Circle FiatTokenV2_2 behind its proxy and settles with its own key). Its anvil is the chain for both apps.`,
    `- **reference**: Hono + \`@x402/hono\` \`paymentMiddleware\` over \`x402ResourceServer\` + \`ExactEvmScheme\` (server), with an in-process \`x402Facilitator\` + \`ExactEvmScheme\` (facilitator) through \`toFacilitatorEvmSigner\` over viem clients (receipt polling 50 ms, no nonce manager), settling with anvil account #6. Same route, price (\`1000\` atomic = 0.001 USDC, \`extra: {name: "USD Coin", version: "2"}\`), network \`eip155:31337\` and payTo as toolgate.`,
    `- **bare node:http**: answers every request with toolgate's own 402, recorded at the start of the run (the same headers and body, byte for byte), precomputed: the ceiling for the 402 path.`,
    `- **402 path**: autocannon (programmatic, one thread), ${c.connections} connections, ${c.warmupSeconds} s warm-up thrown away, then ${c.seconds} s measured, one target at a time; only 402 answers count.`,
    `- **Paid path**: for each payer count (${c.payerCounts.join(', ')}), toolgate then the reference, ${c.paidSeconds} s each. Every payer is a fresh key funded with up to 5 USDC (at most 5,000 calls' worth; the demo payer's 1000 USDC shared out) by ERC-20 \`transfer\` from the demo payer, and loops on the official client: \`wrapFetchWithPayment(fetch, x402Client)\` with the client \`ExactEvmScheme\` (\`toClientEvmSigner\` over a viem local account) and \`setSpendControls({ allowedAssets: [{ network, asset: usdc }] })\`. A call succeeds on a 200 whose PAYMENT-RESPONSE says \`success: true\`; anything else is a failure, counted by status and reason. Latency is what the client sees: 402 round trip + signing + paid round trip. Calls started before the deadline are awaited (timeout ${c.callTimeoutMs / 1000} s), and paid/s = successes / the whole time. Each app gets ${PAID_WARMUP_CALLS} unmeasured paid calls first.`,
    '- **Settled on chain**: payTo\'s USDC balance change over the run (once it stops moving) ÷ price: what really moved, whatever the clients were told.',
    `- Before each measurement the bench waits up to ${c.quietWaitSeconds} s for other processes to use < ${NOISY_PCT} % of a core, and records per-measurement CPU use from /proc.`,
    '',
  ];
}

/** The first line of a generated section: when, on what, at which commit, how long. */
export function runLine(m: Machine, totalSeconds: number): string {
  return `Run: ${m.date} · ${m.cpus} vCPU (\`nproc\`; ${m.cpuModel}) · ${m.memoryGiB} GiB · Node ${m.node} · ${m.os} · commit ${m.commit} · load average at start ${m.loadAverageAtStart} · whole run ${dec(totalSeconds, 0)} s`;
}

function generatedSection(r: BenchResults): string {
  const m = r.machine;
  const c = r.config;
  const failures = failureLines(r);
  return [
    BEGIN,
    runLine(m, r.totalSeconds),
    '',
    ...methodLines(r),
    r.toolgate.measured ? '' : `**toolgate was not measured in this run:** ${r.toolgate.note ?? ''}\n`,
    `### 402 path: unpaid \`GET /api/tools/uuid\` (${c.connections} connections, ${c.warmupSeconds} s warm-up + ${c.seconds} s measured per target)`,
    '',
    markdownTable(UNPAID_HEAD, unpaidRows(r), 1),
    '',
    `### Paid calls end to end (${c.paidSeconds} s per run, fresh payers, official \`@x402/fetch\` client, price 0.001 USDC)`,
    '',
    markdownTable(PAID_HEAD, paidRows(r), 2),
    '',
    ...(failures.length ? ['Failure reasons:', '', ...failures.map((f) => `- ${f}`), ''] : []),
    CPU_NOTE,
    '',
    `Memory at the end of the run (RSS of the process group / peak of the main process, MiB): ${Object.entries(r.memory)
      .map(([target, m]) => `${target} ${m ? `${m.rssMiB} / ${m.leaderPeakMiB}` : '–'}`)
      .join(' · ')} (toolgate's group includes its anvil).`,
    '',
    toolgateMemoryLine(r),
    '',
    ...(anyNoisy(r) ? [NOISE_NOTE, ''] : []),
    ...(anyGeneratorBound(r) ? [GENERATOR_NOTE, ''] : []),
    `Raw results: \`bench/results/latest.json\`. Chain: anvil from ${r.chain.source === 'toolgate' ? "toolgate's local mode" : "the bench's own devchain"}.`,
    END,
  ]
    .filter((line, i, all) => !(line === '' && all[i - 1] === ''))
    .join('\n');
}

const DEFAULT_DOC = (section: string) => `# Benchmarks

How fast toolgate answers the 402 path and how many paid calls per second it completes end to end, next to
a bare \`node:http\` server (the ceiling for the 402 path) and a REFERENCE app wired the standard way
(Hono + \`@x402/hono\` \`paymentMiddleware\` + \`x402ResourceServer\` + an in-process \`x402Facilitator\`).

Run it with \`npm run bench\`.

## Latest run

${section}

## Reading

(to be written)
`;

/** Replaces the generated section of the document, keeping everything else (the MCP bench's section too); creates the document if needed. */
export async function writeDocs(file: string, results: BenchResults): Promise<void> {
  await writeSection(file, { begin: BEGIN, end: END }, generatedSection(results), DEFAULT_DOC);
}

/** The main process alone (no anvil): resident after warm-up, then after all the load, and its peak. */
function toolgateMemoryLine(r: BenchResults): string {
  const before = r.toolgateAfterWarmUp;
  const after = r.memory.toolgate;
  if (!before || !after) return "toolgate's main process: not measured.";
  return `toolgate's main process, resident (MiB): ${before.leaderRssMiB} after start and warm-up, ${after.leaderRssMiB} after the whole load; its peak, ${after.leaderPeakMiB}.`;
}
