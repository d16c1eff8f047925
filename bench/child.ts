// Child processes for the bench: each server runs in its own process group, so stopping one ends
// everything it started (toolgate's anvil included), and nothing survives the bench.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, openSync, closeSync } from 'node:fs';

export interface Child {
  name: string;
  process: ChildProcess;
  logFile: string;
  /** SIGTERM to the whole group, then SIGKILL after `graceMs`; resolves once the leader has exited. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // the group is already gone
  }
}

// Last resort if the bench dies half-way: no server or chain may outlive it.
process.once('exit', () => {
  for (const child of live) signalGroup(child, 'SIGKILL');
});

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function wrap(name: string, child: ChildProcess, logFile: string): Child {
  live.add(child);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    process: child,
    logFile,
    async stop(graceMs = 5_000) {
      signalGroup(child, 'SIGTERM');
      const timer = new Promise<'late'>((resolve) => setTimeout(() => resolve('late'), graceMs).unref());
      if (!hasExited(child) && (await Promise.race([exited.then(() => 'done' as const), timer])) === 'late') {
        signalGroup(child, 'SIGKILL');
        await exited;
      }
      // The leader may exit before its own children (anvil): sweep the group once more.
      signalGroup(child, 'SIGKILL');
      live.delete(child);
    },
  };
}

/** Spawns `node --import tsx <script>` with all output going to `logFile`; readiness is the caller's business. */
/** Runs a TypeScript script through tsx. */
export function spawnScript(name: string, script: string, env: NodeJS.ProcessEnv, logFile: string): Child {
  return spawnNode(name, ['--import', 'tsx', script], env, logFile);
}

/** Runs node with these arguments, its output to `logFile`, in a process group of its own. */
export function spawnNode(name: string, args: string[], env: NodeJS.ProcessEnv, logFile: string): Child {
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, { env, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  return wrap(name, child, logFile);
}

/** Spawns a script that prints "READY <port>" once it listens; resolves with the port. */
export async function spawnReadyScript(
  name: string,
  script: string,
  env: NodeJS.ProcessEnv,
  logFile: string,
  timeoutMs = 30_000,
): Promise<{ child: Child; port: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', script], { env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  const handle = wrap(name, child, logFile);
  const log = createWriteStream(logFile, { flags: 'w' });
  child.stderr?.pipe(log);
  try {
    const port = await new Promise<number>((resolve, reject) => {
      let seen = '';
      const timer = setTimeout(() => reject(new Error(`${name} did not print READY within ${timeoutMs} ms (log: ${logFile})`)), timeoutMs);
      child.once('exit', (code) => reject(new Error(`${name} exited with ${code} before it was ready (log: ${logFile})`)));
      child.stdout?.on('data', (chunk: Buffer) => {
        log.write(chunk);
        seen += chunk.toString();
        const match = /READY (\d+)/.exec(seen);
        if (match?.[1]) {
          clearTimeout(timer);
          resolve(Number(match[1]));
        }
      });
    });
    return { child: handle, port };
  } catch (error) {
    await handle.stop(1_000);
    throw error;
  }
}
