// Resident memory of a process group (Linux /proc; undefined elsewhere): current RSS and the leader's peak.
import { readdirSync, readFileSync } from 'node:fs';

export interface Memory {
  /** Current RSS of every process in the group, summed (MiB). */
  rssMiB: number;
  /** Peak RSS of the group leader alone (VmHWM, MiB). */
  leaderPeakMiB: number;
  /** Current RSS of the group leader alone (MiB). */
  leaderRssMiB: number;
}

function statusField(pid: number, field: string): number | undefined {
  try {
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
    return match?.[1] ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

function groupOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
  } catch {
    return undefined;
  }
}

export function groupMemory(leader: number | undefined): Memory | undefined {
  if (leader === undefined) return undefined;
  const leaderPeakMiB = statusField(leader, 'VmHWM');
  if (leaderPeakMiB === undefined) return undefined;
  let rssMiB = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry) || groupOf(Number(entry)) !== leader) continue;
    rssMiB += statusField(Number(entry), 'VmRSS') ?? 0;
  }
  return { rssMiB: Math.round(rssMiB), leaderPeakMiB: Math.round(leaderPeakMiB), leaderRssMiB: Math.round(statusField(leader, 'VmRSS') ?? 0) };
}
