// `npm run bench:mcp`: toolgate's MCP endpoint side by side with a bare SDK v2 + Fastify server, one run on loopback.
//  1. toolgate in local mode (it brings its own anvil) and bench/mcp-reference-server.ts, each a child in its own process group.
//  2. Every scenario's request is sent once to each target and its answer checked in full; any wrong answer stops the bench.
//  3. For each scenario (two eras × tools/list and an unpaid tools/call), autocannon against toolgate, then the reference.
//  4. Table on stdout, bench/results/mcp-latest.json, the MCP section of docs/benchmarks.md.
// Settings are npm run bench's (bench/config.ts): BENCH_SECONDS, BENCH_WARMUP_SECONDS, BENCH_CONNECTIONS,
// BENCH_QUIET_WAIT_SECONDS, BENCH_TOOLGATE_START_SECONDS, BENCH_WRITE_DOCS.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { spawnReadyScript, type Child } from './child.ts';
import { loadBenchConfig } from './config.ts';
import { waitForQuiet, withCpu } from './cpu.ts';
import { checkAnswer } from './mcp-check.ts';
import { measureMcp, warmUpMcp } from './mcp-load.ts';
import { ECHO_TOOL } from './mcp-reference-server.ts';
import { MCP_TARGET, printMcpReport, writeMcpDocs, type McpBenchResults, type McpRow, type McpTarget } from './mcp-report.ts';
import { SCENARIOS, mcpRequest } from './mcp-scenarios.ts';
import { groupMemory, type Memory } from './memory.ts';
import { NOISY_PCT, describeMachine, writeJson } from './report.ts';
import { startToolgate, waitForWarmUp } from './toolgate-process.ts';

const RESULTS_FILE = resolve('bench/results/mcp-latest.json');
const DOCS_FILE = resolve('docs/benchmarks.md');
const LOG_DIR = resolve('bench/results/logs');
/** The MCP name of the tool behind `GET /api/tools/uuid` (src/catalog/utility/hashes-and-uuids.ts); the check before measuring fails if it is unknown. */
const TOOLGATE_UUID_TOOL = 'generate_hashes_and_uuids';

/** Longest wait for toolgate's background warm-up of its local tools. */
const WARM_UP_TIMEOUT_MS = 60_000;

const log = (message: string) => console.log(`[bench:mcp ${new Date().toISOString().slice(11, 19)}] ${message}`);

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const started = performance.now();
  const machine = describeMachine();
  // Safety net: whatever happens, the bench ends (the exit hook in child.ts then kills every child group).
  const worstCase = 120 + config.toolgateStartSeconds + WARM_UP_TIMEOUT_MS / 1000 + SCENARIOS.length * 2 * (config.quietWaitSeconds + config.warmupSeconds + config.seconds + 15);
  setTimeout(() => {
    console.error(`bench:mcp: still running after ${Math.round(worstCase)} s, giving up`);
    process.exit(3);
  }, worstCase * 1000).unref();
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));

  await mkdir(LOG_DIR, { recursive: true });
  const dataDir = await mkdtemp(join(tmpdir(), 'toolgate-bench-mcp-'));
  const children: Child[] = [];
  try {
    // 1. The two servers.
    log(`starting toolgate (local mode, log ${join(LOG_DIR, 'toolgate-mcp.log')})`);
    const toolgate = await startToolgate(dataDir, join(LOG_DIR, 'toolgate-mcp.log'), config.toolgateStartSeconds * 1000);
    children.push(toolgate.child);
    const reference = await spawnReadyScript('mcp-reference', resolve('bench/mcp-reference-server.ts'), process.env, join(LOG_DIR, 'mcp-reference.log'));
    children.push(reference.child);
    log(`toolgate at ${toolgate.url}, reference at http://127.0.0.1:${reference.port}`);
    // Its background warm-up would otherwise share the CPU with the first measurement.
    const warmedUp = await waitForWarmUp(toolgate, WARM_UP_TIMEOUT_MS);
    log(warmedUp ? `toolgate says: ${warmedUp}` : `toolgate did not report its warm-up within ${WARM_UP_TIMEOUT_MS / 1000} s; measuring anyway`);
    const targets: McpTarget[] = [
      { name: MCP_TARGET.toolgate, url: `${toolgate.url}/mcp`, call: { name: TOOLGATE_UUID_TOOL, arguments: {}, answer: 'payment-required' } },
      { name: MCP_TARGET.reference, url: `http://127.0.0.1:${reference.port}/mcp`, call: { name: ECHO_TOOL, arguments: { text: 'hello' }, answer: 'tool-result' } },
    ];
    const groupOf: Record<string, number | undefined> = { [MCP_TARGET.toolgate]: toolgate.child.process.pid, [MCP_TARGET.reference]: reference.child.process.pid };
    const benchGroups = children.flatMap((c) => (c.process.pid === undefined ? [] : [c.process.pid]));

    // 2. Every request gets a right answer from both targets, or nothing is measured.
    const answerBytes = new Map<string, number>();
    for (const scenario of SCENARIOS) {
      for (const target of targets) {
        const label = `${scenario.id} (${scenario.title}) → ${target.name}`;
        const checked = await checkAnswer(label, target.url, mcpRequest(scenario, target.call), scenario.method, target.call);
        answerBytes.set(`${scenario.id} ${target.name}`, checked.bytes);
        log(`checked ${label}: 200, ${checked.summary}`);
      }
    }

    // 3. The load.
    const quiet = async () => {
      const { waitedMs, outside } = await waitForQuiet(benchGroups, NOISY_PCT, config.quietWaitSeconds * 1000);
      if (outside !== undefined && outside >= NOISY_PCT) log(`  the machine is busy outside the bench (${outside} % of a core after ${Math.round(waitedMs / 1000)} s of waiting); measuring anyway`);
    };
    const rows: McpRow[] = [];
    for (const scenario of SCENARIOS) {
      for (const target of targets) {
        const request = mcpRequest(scenario, target.call);
        log(`${scenario.id} ${scenario.title}: ${target.name}, ${config.warmupSeconds} s warm-up + ${config.seconds} s`);
        await quiet();
        await warmUpMcp(target.url, request, config.connections, config.warmupSeconds);
        const { result, cpu } = await withCpu(groupOf[target.name], benchGroups, () =>
          measureMcp(scenario, target.name, target.url, request, target.call, config.connections, config.seconds),
        );
        rows.push({ ...result, answerBytes: answerBytes.get(`${scenario.id} ${target.name}`) ?? 0, cpu });
        log(
          `  ${Math.round(result.requestsPerSecond)} req/s, p50 ${result.latencyMs.p50} ms, p99 ${result.latencyMs.p99} ms, ${result.right}/${result.totalRequests} right, non-2xx ${result.non2xx}` +
            (cpu ? `, CPU % server ${cpu.server} / load generator ${cpu.harness} / outside ${cpu.outside}` : ''),
        );
      }
    }

    const memory: Record<string, Memory | undefined> = {};
    for (const target of targets) memory[target.name] = groupMemory(groupOf[target.name]);
    const results: McpBenchResults = {
      machine,
      config: { connections: config.connections, warmupSeconds: config.warmupSeconds, seconds: config.seconds, quietWaitSeconds: config.quietWaitSeconds },
      targets,
      rows,
      memory,
      totalSeconds: (performance.now() - started) / 1000,
    };
    printMcpReport(results);
    await writeJson(RESULTS_FILE, results);
    if (config.writeDocs) await writeMcpDocs(DOCS_FILE, results);
    console.log(`\nWrote ${RESULTS_FILE}${config.writeDocs ? ` and ${DOCS_FILE}` : ''}`);
    const wrong = rows.filter((r) => r.non2xx > 0 || r.wrongBody > 0);
    if (wrong.length) throw new Error(`wrong answers under load: ${wrong.map((r) => `${r.scenario} ${r.target}: ${r.non2xx} non-2xx, ${r.wrongBody} 200s with a wrong body`).join('; ')}`);
  } finally {
    await Promise.all(children.map((c) => c.stop()));
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench:mcp failed:', error);
    process.exit(1);
  },
);
