// `npm run bench`: one run on loopback.
//  1. toolgate in local mode as a child (it brings anvil + Circle USDC); if it cannot start, a chain of our own.
//  2. The bare node:http ceiling and the REFERENCE app (Hono + @x402/hono, local facilitator) as children.
//  3. 402 path: autocannon against each target in turn.
//  4. Paid calls: for each payer count, toolgate then the reference, on the same anvil, fresh funded payers.
//  5. Table on stdout, bench/results/latest.json, docs/benchmarks.md.
// Everything listens on 127.0.0.1; every child runs in its own process group and is ended before exit.
import { spawnSync } from 'node:child_process';
import { mkdtemp, mkdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { PRICE_ATOMIC, ROLE, ROUTE, devPrivateKey, type DevChain } from './chain.ts';
import { spawnReadyScript, type Child } from './child.ts';
import { loadBenchConfig } from './config.ts';
import { startOwnDevChain, type OwnDevChain } from './devchain-for-reference.ts';
import { PAID_WARMUP_CALLS, measurePaid, warmUpPaid } from './paid-load.ts';
import { freshPayers, fundPayers, usdcBalance, type Payer } from './payers.ts';
import { TARGET, describeMachine, printReport, writeDocs, writeJson, type BenchResults, type PaidRow, type UnpaidRow } from './report.ts';
import { startToolgate, waitForWarmUp, type RunningToolgate } from './toolgate-process.ts';
import { measureUnpaid, warmUpUnpaid } from './unpaid-load.ts';
import { waitForQuiet, withCpu } from './cpu.ts';
import { groupMemory, type Memory } from './memory.ts';

const RESULTS_FILE = resolve('bench/results/latest.json');
const DOCS_FILE = resolve('docs/benchmarks.md');
const LOG_DIR = resolve('bench/results/logs');
/** Per payer: 1 USDC = 1,000 calls at 0.001, far more than one run can make. */
/** Each payer gets up to 5 USDC (5,000 calls at 0.001: no run exhausts it), out of the demo payer's 1000. */
const MAX_FUNDING_ATOMIC = 5_000_000n;
const FUNDING_BUDGET_ATOMIC = 900_000_000n;
/** Before each measurement, wait (up to BENCH_QUIET_WAIT_SECONDS) for other processes to use < QUIET_PCT of one core. */
const QUIET_PCT = 25;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const log = (message: string) => console.log(`[bench ${new Date().toISOString().slice(11, 19)}] ${message}`);

async function rpcAnswers(rpcUrl: string): Promise<boolean> {
  try {
    const res = await fetch(rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      signal: AbortSignal.timeout(1_000),
    });
    return res.ok;
  } catch {
    return false;
  }
}

/** payTo's balance once it stops moving (late settlements land), at most `maxMs` later. */
async function settledBalance(devChain: DevChain, maxMs: number): Promise<bigint> {
  let last = await usdcBalance(devChain, devChain.payTo);
  const deadline = Date.now() + maxMs;
  while (Date.now() < deadline) {
    await sleep(300);
    const now = await usdcBalance(devChain, devChain.payTo);
    if (now === last) return now;
    last = now;
  }
  return last;
}

async function main(): Promise<void> {
  const config = loadBenchConfig();
  const started = performance.now();
  const machine = describeMachine();
  // Safety net: whatever happens, the bench ends (the exit hook in child.ts then kills every child group).
  const worstCase = 120 + 9 * config.quietWaitSeconds + 3 * (config.seconds + config.warmupSeconds + 15) + 2 * config.payerCounts.length * (config.paidSeconds + config.callTimeoutMs / 1000 + 10) + config.toolgateStartSeconds;
  setTimeout(() => {
    console.error(`bench: still running after ${Math.round(worstCase)} s, giving up`);
    process.exit(3);
  }, worstCase * 1000).unref();
  process.once('SIGINT', () => process.exit(130));
  process.once('SIGTERM', () => process.exit(143));

  await mkdir(LOG_DIR, { recursive: true });
  const dataDir = await mkdtemp(join(tmpdir(), 'toolgate-bench-'));
  const children: Child[] = [];
  let toolgate: RunningToolgate | undefined;
  let own: OwnDevChain | undefined;
  let toolgateNote: string | undefined;

  try {
    // 1. The chain, from toolgate if it runs.
    if (config.skipToolgate) toolgateNote = 'skipped (BENCH_SKIP_TOOLGATE)';
    else {
      try {
        if (config.toolgateBuild === 'compiled') {
          log('building toolgate (npm run build), to measure it as it runs in production');
          const built = spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
          if (built.status !== 0) throw new Error(`npm run build failed (${built.status ?? built.signal})`);
        }
        const how = config.toolgateBuild === 'compiled' ? 'node dist/main.js' : 'node --import tsx src/main.ts';
        log(`starting toolgate (${how}, local mode, log ${join(LOG_DIR, 'toolgate.log')})`);
        toolgate = await startToolgate(dataDir, join(LOG_DIR, 'toolgate.log'), config.toolgateStartSeconds * 1000, config.toolgateBuild);
        children.push(toolgate.child);
        toolgateNote = toolgate.routeProblem;
        log(`toolgate up at ${toolgate.url}; chain ${toolgate.devChain.rpcUrl}, USDC ${toolgate.devChain.usdc}`);
        // Its background warm-up would otherwise share the CPU with the first measurements.
        const warmedUp = await waitForWarmUp(toolgate, 60_000);
        log(warmedUp ? `toolgate says: ${warmedUp}` : 'toolgate did not report its warm-up within 60 s; measuring anyway');
      } catch (error) {
        toolgateNote = `could not start: ${error instanceof Error ? error.message : String(error)}`;
      }
    }
    const measureToolgate = toolgate !== undefined && toolgateNote === undefined;
    // Resident memory once started and warmed up, before any load: the baseline the end is compared with.
    const toolgateAfterWarmUp = groupMemory(toolgate?.child.process.pid);
    if (!measureToolgate) log(`toolgate will NOT be measured: ${toolgateNote}`);
    let devChain: DevChain;
    if (toolgate) devChain = toolgate.devChain;
    else {
      log('starting the bench’s own anvil + FiatTokenV2_2 for the reference app');
      own = await startOwnDevChain();
      devChain = own.devChain;
    }

    // 2. The other two servers.
    // The ceiling answers with toolgate's own 402, byte for byte (headers and body): the same work on
    // the wire, none of the parsing, validation or framework.
    const bareEnv = toolgate ? { ...process.env, BENCH_BARE_402: JSON.stringify(await recorded402(`${toolgate.url}${ROUTE}`)) } : process.env;
    const bare = await spawnReadyScript('bare', resolve('bench/bare-server.ts'), bareEnv, join(LOG_DIR, 'bare.log'));
    children.push(bare.child);
    const reference = await spawnReadyScript(
      'reference',
      resolve('bench/reference-app.ts'),
      { ...process.env, BENCH_DEVCHAIN: JSON.stringify(devChain), BENCH_SETTLER_KEY: devPrivateKey(ROLE.referenceSettler) },
      join(LOG_DIR, 'reference.log'),
    );
    children.push(reference.child);
    const groupOf: Record<string, number | undefined> = {
      [TARGET.bare]: bare.child.process.pid,
      [TARGET.reference]: reference.child.process.pid,
      [TARGET.toolgate]: toolgate?.child.process.pid,
    };
    const benchGroups = children.flatMap((c) => (c.process.pid === undefined ? [] : [c.process.pid]));
    const urls: Record<string, string> = {
      [TARGET.bare]: `http://127.0.0.1:${bare.port}${ROUTE}`,
      [TARGET.reference]: `http://127.0.0.1:${reference.port}${ROUTE}`,
    };
    if (measureToolgate && toolgate) urls[TARGET.toolgate] = `${toolgate.url}${ROUTE}`;

    // 3. The 402 path.
    const quiet = async () => {
      const { waitedMs, outside } = await waitForQuiet(benchGroups, QUIET_PCT, config.quietWaitSeconds * 1000);
      if (outside !== undefined && outside >= QUIET_PCT) log(`  the machine is busy outside the bench (${outside} % of a core after ${Math.round(waitedMs / 1000)} s of waiting); measuring anyway`);
    };
    const unpaid: UnpaidRow[] = [];
    for (const [target, url] of Object.entries(urls)) {
      log(`402 path: ${target}, ${config.warmupSeconds} s warm-up + ${config.seconds} s`);
      await quiet();
      await warmUpUnpaid(url, config.connections, config.warmupSeconds);
      const { result, cpu } = await withCpu(groupOf[target], benchGroups, () => measureUnpaid(target, url, config.connections, config.seconds));
      unpaid.push({ ...result, cpu });
      log(`  ${Math.round(result.requestsPerSecond)} 402/s, p99 ${result.latencyMs.p99} ms${cpu ? `, CPU % server ${cpu.server} / load generator ${cpu.harness} / idle bench servers ${cpu.otherBench} / outside the bench ${cpu.outside}` : ''}`);
    }

    // 4. Paid calls. All payers are funded first, so funding never overlaps a measurement.
    const paidTargets = [TARGET.toolgate, TARGET.reference].filter((t) => urls[t] !== undefined);
    const plan = config.payerCounts.flatMap((payers) => paidTargets.map((target) => ({ target, payers: freshPayers(payers) })));
    const warmupPayers = new Map<string, Payer>(paidTargets.map((t) => [t, freshPayers(1)[0] as Payer]));
    const everyone = [...warmupPayers.values(), ...plan.flatMap((p) => p.payers)];
    const funding = FUNDING_BUDGET_ATOMIC / BigInt(everyone.length) < MAX_FUNDING_ATOMIC ? FUNDING_BUDGET_ATOMIC / BigInt(everyone.length) : MAX_FUNDING_ATOMIC;
    log(`funding ${everyone.length} fresh payers with ${Number(funding) / 1e6} USDC each from the demo payer`);
    await fundPayers(devChain, everyone, funding);

    const warmupProblems: Record<string, string[]> = {};
    for (const [target, payer] of warmupPayers) {
      const url = urls[target] as string;
      const problems = await warmUpPaid(url, devChain, payer, PAID_WARMUP_CALLS);
      if (problems.length) {
        warmupProblems[target] = problems;
        log(`  paid warm-up against ${target} failed ${problems.length}/${PAID_WARMUP_CALLS}: ${problems[0]}`);
      }
    }

    const paid: PaidRow[] = [];
    for (const { target, payers } of plan) {
      log(`paid: ${target}, ${payers.length} payer(s), ${config.paidSeconds} s`);
      await quiet();
      const before = await settledBalance(devChain, 3_000);
      const { result, cpu } = await withCpu(groupOf[target], benchGroups, () =>
        measurePaid(target, urls[target] as string, devChain, payers, config.paidSeconds, config.callTimeoutMs),
      );
      const after = await settledBalance(devChain, 3_000);
      const settledOnChain = Number((after - before) / BigInt(PRICE_ATOMIC));
      paid.push({ ...result, settledOnChain, cpu });
      log(`  ${result.paidCallsPerSecond.toFixed(1)} paid/s, p50 ${result.latencyMs.p50.toFixed(0)} ms, failed ${result.failurePercent.toFixed(1)} %, ${settledOnChain} settled on chain`);
    }

    const memory: Record<string, Memory | undefined> = {};
    for (const target of Object.keys(urls)) memory[target] = groupMemory(groupOf[target]);

    const results: BenchResults = {
      machine,
      config,
      toolgate: { measured: measureToolgate, ...(toolgateNote ? { note: toolgateNote } : {}) },
      chain: { source: toolgate ? 'toolgate' : 'bench', rpcUrl: devChain.rpcUrl, usdc: devChain.usdc },
      unpaid,
      paid,
      warmupProblems,
      memory,
      ...(toolgateAfterWarmUp ? { toolgateAfterWarmUp } : {}),
      totalSeconds: (performance.now() - started) / 1000,
    };
    printReport(results);
    await writeJson(RESULTS_FILE, results);
    if (config.writeDocs) await writeDocs(DOCS_FILE, results);
    console.log(`\nWrote ${RESULTS_FILE}${config.writeDocs ? ` and ${DOCS_FILE}` : ''}`);
  } finally {
    const rpcUrl = toolgate?.devChain.rpcUrl;
    await Promise.all(children.map((c) => c.stop()));
    await own?.stop();
    if (rpcUrl && (await rpcAnswers(rpcUrl))) console.error(`bench: WARNING: toolgate's anvil still answers at ${rpcUrl} after toolgate stopped`);
    await rm(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error('bench failed:', error);
    process.exit(1);
  },
);

/** An unpaid call's 402 as toolgate answers it: the headers a server sets (not Date or connection ones) and the body. */
async function recorded402(url: string): Promise<{ headers: Record<string, string>; body: string }> {
  const response = await fetch(url);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!['date', 'connection', 'keep-alive', 'transfer-encoding'].includes(name)) headers[name] = value;
  });
  return { headers, body: await response.text() };
}
