// How fast toolgate starts and how much memory it holds once started: the compiled build (`node
// dist/main.js`, built first by scripts/build.mjs) beside today's `node --import tsx src/main.ts`,
// with tsx's transform cache warm and disabled (TSX_DISABLE_CACHE=1, as on a first start). Each run
// is a fresh process with a fresh data dir in local mode (it starts its own anvil); the variants
// take turns, round after round. Writes bench/results/start-latest.json and its section of
// docs/benchmarks.md.
//   npm run bench:start            (BENCH_START_RUNS=7 runs of each)
import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeSection } from './doc-section.ts';
import { describeMachine } from './report.ts';
import { startSection } from './start-report.ts';
import type { Sample, StartResults, Variant } from './start-report.ts';

const RUNS = Number(process.env.BENCH_START_RUNS ?? 7);
const SETTLE_MS = 3_000;
const root = fileURLToPath(new URL('..', import.meta.url));

const variants: Variant[] = [
  { name: 'compiled', command: 'node dist/main.js', args: ['dist/main.js'], env: {} },
  { name: 'tsx', command: 'node --import tsx src/main.ts', args: ['--import', 'tsx', 'src/main.ts'], env: {} },
  { name: 'tsx, no cache', command: 'TSX_DISABLE_CACHE=1 node --import tsx src/main.ts', args: ['--import', 'tsx', 'src/main.ts'], env: { TSX_DISABLE_CACHE: '1' } },
];

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.once('error', reject);
  });
}

/** CPU time the process has used so far, all its threads (user + system), in ms: unlike wall time, barely moved by other work on the machine. */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const [utime, stime] = stat.slice(stat.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
  return ((utime ?? NaN) + (stime ?? NaN)) * 10; // USER_HZ = 100
}

function kiB(pid: number, field: string): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
}

/** One start: spawn -> first line (modules loaded), -> "listening" line, -> first 200 on /health; then RSS once warm. */
async function startOnce(variant: Variant): Promise<Sample> {
  const dataDir = await mkdtemp(join(tmpdir(), 'toolgate-bench-start-'));
  const port = await freePort();
  const env = { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', PORT: String(port), TOOLGATE_DATA_DIR: dataDir, TOOLGATE_LOG_LEVEL: 'warn', ...variant.env };
  const started = performance.now();
  const child = spawn(process.execPath, variant.args, { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  let loaded: { ms: number; cpuMs: number } | undefined;
  let listening: { ms: number; cpuMs: number } | undefined;
  const now = () => ({ ms: performance.now() - started, cpuMs: cpuMs(child.pid!) });
  child.stdout.on('data', (d: Buffer) => {
    output += d.toString();
    // main.ts prints its first line once every module it imports statically is loaded.
    if (loaded === undefined && /starting a local chain/.test(output)) loaded = now();
    if (listening === undefined && /listening on/.test(output)) listening = now();
  });
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  try {
    let healthMs: number | undefined;
    while (healthMs === undefined) {
      if (child.exitCode !== null) throw new Error(`${variant.command} exited:\n${output}`);
      if (performance.now() - started > 60_000) throw new Error(`${variant.command} did not answer /health in 60 s:\n${output}`);
      const ok = await fetch(`http://127.0.0.1:${port}/health`).then((r) => r.status === 200, () => false);
      if (ok) healthMs = performance.now() - started;
      else await new Promise((r) => setTimeout(r, 10));
    }
    while (!/warmed up/.test(output)) await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, SETTLE_MS)); // an idle server, as it sits waiting for its first call
    const pid = child.pid!;
    return {
      loadedMs: Math.round(loaded?.ms ?? NaN), loadedCpuMs: loaded?.cpuMs ?? NaN,
      listeningMs: Math.round(listening?.ms ?? NaN), listeningCpuMs: listening?.cpuMs ?? NaN,
      healthMs: Math.round(healthMs), rssMiB: Math.round(kiB(pid, 'VmRSS') / 1024), peakMiB: Math.round(kiB(pid, 'VmHWM') / 1024),
    };
  } finally {
    child.kill('SIGTERM');
    await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const machine = describeMachine();
  const buildStarted = performance.now();
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
  const buildSeconds = Number(((performance.now() - buildStarted) / 1000).toFixed(1));

  const samples = new Map<string, Sample[]>(variants.map((v) => [v.name, []]));
  for (const variant of variants) await startOnce(variant); // unmeasured: fills tsx's cache and the OS's file cache alike
  for (let round = 1; round <= RUNS; round += 1) {
    for (const variant of variants) {
      const sample = await startOnce(variant);
      samples.get(variant.name)!.push(sample);
      console.log(`round ${round} ${variant.name.padEnd(14)} loaded ${sample.loadedMs} ms (CPU ${sample.loadedCpuMs}), listening ${sample.listeningMs} ms (CPU ${sample.listeningCpuMs}), /health ${sample.healthMs} ms, RSS ${sample.rssMiB} MiB (peak ${sample.peakMiB})`);
    }
  }
  const results: StartResults = { machine, runs: RUNS, buildSeconds, loadAverageAtEnd: Number((loadavg()[0] ?? 0).toFixed(2)), variants, samples: Object.fromEntries(samples) };
  await writeFile(join(root, 'bench/results/start-latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  const markers = { begin: '<!-- start-bench:begin (generated by `npm run bench:start`; edit outside these markers) -->', end: '<!-- start-bench:end -->' };
  await writeSection(join(root, 'docs/benchmarks.md'), markers, startSection(results, markers), (s) => `# Benchmarks\n\n${s}\n`, '## Start time and memory: compiled build vs tsx');
  console.log('wrote bench/results/start-latest.json and docs/benchmarks.md');
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
