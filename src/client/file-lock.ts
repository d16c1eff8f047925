// A lock between processes on one machine: a lock file created exclusively (O_EXCL), holding the
// owner's pid. Held for a read-modify-write of a small file, never across a network call.
// A lock whose owner process is gone, or that is older than STALE_MS, is broken.
import { open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { randomBytes } from 'node:crypto';

const STALE_MS = 30_000;
const WAIT_MS = 15_000;

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function isStale(lockPath: string): Promise<boolean> {
  try {
    const [content, info] = await Promise.all([readFile(lockPath, 'utf8'), stat(lockPath)]);
    const pid = Number.parseInt(content, 10);
    if (Date.now() - info.mtimeMs > STALE_MS) return true;
    return Number.isInteger(pid) && pid > 0 && !processAlive(pid);
  } catch {
    return false; // gone already, or being written: try again
  }
}

/** Runs `work` while holding `lockPath`. */
export async function withFileLock<T>(lockPath: string, work: () => Promise<T>): Promise<T> {
  const deadline = Date.now() + WAIT_MS;
  let delay = 2;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx');
      try {
        await handle.writeFile(String(process.pid));
      } finally {
        await handle.close();
      }
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await isStale(lockPath)) {
        // Renaming is atomic: of several processes breaking the same stale lock, one succeeds.
        const broken = `${lockPath}.stale-${randomBytes(4).toString('hex')}`;
        if (await rename(lockPath, broken).then(() => true, () => false)) await unlink(broken).catch(() => undefined);
        continue;
      }
      if (Date.now() > deadline) throw new Error(`could not take the lock ${lockPath} within ${WAIT_MS / 1000} s (held by another toolgate process; remove the file if none is running)`);
      await new Promise((resolve) => setTimeout(resolve, delay));
      delay = Math.min(delay * 2, 50);
    }
  }
  try {
    return await work();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}
