// Resident memory of one process, sampled every second while a load runs (Linux /proc).
import { readFileSync } from 'node:fs';

export interface RssSeries {
  /** MiB, one sample a second, the first taken when sampling starts. */
  samplesMiB: number[];
  /** Median of the first third against the median of the last third, MiB. */
  firstThirdMiB: number;
  lastThirdMiB: number;
}

function rssMiB(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+) kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : undefined;
  } catch {
    return undefined;
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;

/** Samples `pid` until the returned stop() is called. */
export function sampleRss(pid: number | undefined): () => RssSeries {
  const samples: number[] = [];
  const take = () => {
    const mib = pid === undefined ? undefined : rssMiB(pid);
    if (mib !== undefined) samples.push(mib);
  };
  take();
  const timer = setInterval(take, 1_000);
  return () => {
    clearInterval(timer);
    take();
    const third = Math.max(1, Math.floor(samples.length / 3));
    return { samplesMiB: samples, firstThirdMiB: median(samples.slice(0, third)), lastThirdMiB: median(samples.slice(-third)) };
  };
}
