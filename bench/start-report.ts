// The start-time bench's figures as a section of docs/benchmarks.md: per variant the median and
// range over the runs of time to the "listening" line, time to the first 200 on /health and the
// resident memory once warmed up.
import type { Markers } from './doc-section.ts';
import type { Machine } from './report.ts';

export interface Variant {
  name: string;
  /** As a person would type it (shown in the report). */
  command: string;
  args: string[];
  env: Record<string, string>;
}

export interface Sample {
  /** To main.ts's first line: every module it imports statically is loaded (the loader's share). */
  loadedMs: number;
  /** CPU time (user + system, all threads) the process had used by then. */
  loadedCpuMs: number;
  listeningMs: number;
  listeningCpuMs: number;
  healthMs: number;
  /** VmRSS of the toolgate process (anvil excluded) 3 s after the warm-up line. */
  rssMiB: number;
  /** VmHWM: its peak RSS up to then. */
  peakMiB: number;
}

export interface StartResults {
  machine: Machine;
  runs: number;
  buildSeconds: number;
  loadAverageAtEnd: number;
  variants: Variant[];
  samples: Record<string, Sample[]>;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : Math.round((sorted[middle - 1]! + sorted[middle]!) / 2);
}

/** "median (min–max)" of one figure over the runs. */
function cell(samples: Sample[], pick: (s: Sample) => number): string {
  const values = samples.map(pick);
  return `**${median(values)}** (${Math.min(...values)}–${Math.max(...values)})`;
}

export function startSection(results: StartResults, markers: Markers): string {
  const { machine } = results;
  const rows = results.variants.map((v) => {
    const s = results.samples[v.name] ?? [];
    return `| ${v.name} | \`${v.command}\` | ${cell(s, (x) => x.loadedMs)} | ${cell(s, (x) => x.loadedCpuMs)} | ${cell(s, (x) => x.listeningMs)} | ${cell(s, (x) => x.listeningCpuMs)} | ${cell(s, (x) => x.healthMs)} | ${cell(s, (x) => x.rssMiB)} | ${cell(s, (x) => x.peakMiB)} |`;
  });
  const runs = results.variants
    .map((v) => `- ${v.name}: ${(results.samples[v.name] ?? []).map((s) => `${s.loadedMs}/${s.listeningMs}/${s.healthMs} ms (CPU ${s.loadedCpuMs}/${s.listeningCpuMs}) ${s.rssMiB} MiB`).join(' · ')}`)
    .join('\n');
  return [
    markers.begin,
    `Run: ${machine.date} · ${machine.cpus} vCPU (\`nproc\`; ${machine.cpuModel}) · ${machine.memoryGiB} GiB · Node ${machine.node} · ${machine.os} · commit ${machine.commit} · load average ${machine.loadAverageAtStart} at start, ${results.loadAverageAtEnd} at the end · build (\`npm run build\`) ${results.buildSeconds} s`,
    '',
    '### Method (start)',
    '',
    '- `npm run bench:start` builds `dist/` first, then starts each variant once unmeasured (tsx fills its transform cache, the OS its file cache), then ' +
      `${results.runs} rounds in which the variants take turns. Each start is a fresh process with only PATH, HOME, a free PORT, a fresh \`TOOLGATE_DATA_DIR\` and \`TOOLGATE_LOG_LEVEL=warn\`: ` +
      'local mode, so every start also launches its own anvil, deploys Circle USDC behind its proxy and funds the demo payer (the same work in every variant), and opens a fresh PGlite ledger.',
    '- **loaded**: from `spawn` to main.ts\'s first line (`starting a local chain`), printed once every module it imports statically is loaded: where a TypeScript loader costs. ' +
      '**listening**: from `spawn` to the `listening on` line on stdout. **/health**: from `spawn` to the first `200` on `GET /health`, polled every 10 ms on loopback.',
    '- **CPU ms**: user + system time of the toolgate process (all its threads; anvil excluded) from `/proc/<pid>/stat` when that line appeared, in 10 ms ticks: ' +
      'what the start cost in work, which other load on a shared machine barely moves, unlike the wall times.',
    '- **RSS**: `VmRSS` of the toolgate process (anvil, a separate process, excluded) 3 s after its `local tools warmed up` line (`TOOLGATE_PRELOAD=light`: the math and regex workers started); **peak**: its `VmHWM` then. MiB.',
    '- Cells: **median** (min–max) over the runs. `tsx, no cache` is tsx with `TSX_DISABLE_CACHE=1`: every file transformed again, as on a first start after a checkout or a change.',
    '',
    '| variant | command | loaded ms | loaded, CPU ms | listening ms | listening, CPU ms | /health 200 ms | RSS MiB | peak RSS MiB |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows,
    '',
    'Every run (loaded/listening/health wall ms, CPU ms at loaded/listening, RSS):',
    '',
    runs,
    markers.end,
  ].join('\n');
}
