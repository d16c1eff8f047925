// Who used the CPU during a measurement (Linux /proc; elsewhere the sample is empty). On a small shared box
// this tells a saturated server from a starved one, and shows how much went to processes outside the bench.
// All figures are in percent of ONE core (200 = two cores fully busy).
import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';

interface Proc {
  pid: number;
  ppid: number;
  pgrp: number;
  comm: string;
  ticks: number;
}

interface Snapshot {
  at: number;
  /** Busy jiffies of the whole machine (all cores). */
  busy: number;
  procs: Map<number, Proc>;
}

export interface CpuUse {
  /** The measured server: its process group, the chain excluded. */
  server: number;
  /** anvil (the chain), if it runs. */
  chain: number;
  /** This process: the load generator / paying clients. */
  harness: number;
  /** The bench's other servers, which are not under load at the time (idle, or doing background work). */
  otherBench: number;
  /** Everything else on the machine: other users' work, the kernel. */
  outside: number;
  machine: number;
  cores: number;
}

const TICKS_PER_SECOND = 100; // USER_HZ, 100 on every mainstream Linux build

function readProc(pid: number): Proc | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const comm = stat.slice(stat.indexOf('(') + 1, close);
    const f = stat.slice(close + 2).split(' '); // f[0] is field 3 (state)
    return { pid, comm, ppid: Number(f[1]), pgrp: Number(f[2]), ticks: Number(f[11]) + Number(f[12]) };
  } catch {
    return undefined; // gone, or not Linux
  }
}

export function snapshot(): Snapshot | undefined {
  try {
    const cpu = readFileSync('/proc/stat', 'utf8').split('\n')[0]?.trim().split(/\s+/).slice(1).map(Number) ?? [];
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = cpu;
    const procs = new Map<number, Proc>();
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const proc = readProc(Number(entry));
      if (proc) procs.set(proc.pid, proc);
    }
    return { at: performance.now(), busy: user + nice + system + irq + softirq + steal, procs };
  } catch {
    return undefined;
  }
}

/** CPU use between two snapshots. `serverGroup` is the measured server's process-group id. */
export function cpuBetween(a: Snapshot | undefined, b: Snapshot | undefined, serverGroup: number | undefined, benchGroups: readonly number[]): CpuUse | undefined {
  if (!a || !b) return undefined;
  const seconds = (b.at - a.at) / 1000;
  const pct = (ticks: number) => Math.round((100 * ticks) / TICKS_PER_SECOND / seconds);
  let server = 0;
  let chain = 0;
  let harness = 0;
  let otherBench = 0;
  for (const proc of b.procs.values()) {
    const used = proc.ticks - (a.procs.get(proc.pid)?.ticks ?? 0);
    const ours = proc.pgrp === process.pid || benchGroups.includes(proc.pgrp) || proc.ppid === process.pid;
    if (proc.pid === process.pid) harness += used;
    else if (ours && proc.comm === 'anvil') chain += used;
    else if (serverGroup !== undefined && proc.pgrp === serverGroup) server += used;
    else if (ours) otherBench += used;
  }
  const machine = b.busy - a.busy;
  const outside = Math.max(0, pct(machine - server - chain - harness - otherBench));
  return { server: pct(server), chain: pct(chain), harness: pct(harness), otherBench: pct(otherBench), outside, machine: pct(machine), cores: availableParallelism() };
}

/** Runs `work` and reports who used the CPU meanwhile. */
export async function withCpu<T>(serverGroup: number | undefined, benchGroups: readonly number[], work: () => Promise<T>): Promise<{ result: T; cpu: CpuUse | undefined }> {
  const before = snapshot();
  const result = await work();
  return { result, cpu: cpuBetween(before, snapshot(), serverGroup, benchGroups) };
}

/**
 * Waits, in 1 s windows, until processes outside the bench use less than `thresholdPct` of one core,
 * or `maxMs` has passed. Returns the last window's outside use (undefined where /proc is missing).
 */
export async function waitForQuiet(benchGroups: readonly number[], thresholdPct: number, maxMs: number): Promise<{ waitedMs: number; outside: number | undefined }> {
  const start = performance.now();
  for (;;) {
    const a = snapshot();
    await new Promise((r) => setTimeout(r, 1_000));
    const outside = cpuBetween(a, snapshot(), undefined, benchGroups)?.outside;
    const waitedMs = performance.now() - start;
    if (outside === undefined || outside < thresholdPct || waitedMs >= maxMs) return { waitedMs, outside };
  }
}
