// Resident memory of a process and all its descendants (Linux /proc). RSS counts shared pages
// (libraries, shared memory) once per process, so its sum overstates; PSS splits them fairly.
import { readdirSync, readFileSync } from 'node:fs';

export interface TreeMemory {
  processes: number;
  rssMiB: number;
  pssMiB: number;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined; // gone meanwhile
  }
}

function kiB(text: string, field: string): number {
  const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
  return match?.[1] ? Number(match[1]) : 0;
}

/** The pid and every process below it. */
export function descendantsOf(root: number): number[] {
  const children = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const pid = Number(entry);
    const parent = parentOf(pid);
    if (parent !== undefined) children.set(parent, [...(children.get(parent) ?? []), pid]);
  }
  const tree: number[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const pid = pending.pop()!;
    tree.push(pid);
    pending.push(...(children.get(pid) ?? []));
  }
  return tree;
}

export function processMemory(pids: readonly number[]): TreeMemory {
  let rss = 0;
  let pss = 0;
  let processes = 0;
  for (const pid of pids) {
    try {
      rss += kiB(readFileSync(`/proc/${pid}/status`, 'utf8'), 'VmRSS');
      pss += kiB(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'), 'Pss');
      processes += 1;
    } catch {
      // the process ended between listing and reading
    }
  }
  return { processes, rssMiB: Math.round(rss / 1024), pssMiB: Math.round(pss / 1024) };
}

/** The direct children of this process whose command line names `name`. */
export function childProcessesNamed(name: string): number[] {
  return descendantsOf(process.pid).filter((pid) => {
    if (pid === process.pid || parentOf(pid) !== process.pid) return false;
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(name);
    } catch {
      return false;
    }
  });
}
