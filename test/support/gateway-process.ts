// toolgate as a real process (`src/main.ts` through tsx, as `npm start` runs it, or another entry
// such as a compiled build): for tests that kill it, signal it or read what it prints.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';

const main = new URL('../../src/main.ts', import.meta.url).pathname;

export interface GatewayProcess {
  child: ChildProcess;
  exited: Promise<number | null>;
  output(): string;
  /** Resolves with the first match of `pattern` in what the process printed. */
  waitFor(pattern: RegExp, ms?: number): Promise<RegExpExecArray>;
}

/** How to start it: node's arguments and working directory (default: `--import tsx src/main.ts`). */
export interface GatewayEntry {
  args: string[];
  cwd?: string;
}

/** Starts the process with only PATH, HOME and `env`: no settings leak in from the test's shell. */
export function runGateway(env: Record<string, string>, entry: GatewayEntry = { args: ['--import', 'tsx', main] }): GatewayProcess {
  const child = spawn(process.execPath, entry.args, {
    cwd: entry.cwd,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const waitFor = async (pattern: RegExp, ms = 30_000) => {
    const deadline = Date.now() + ms;
    while (!pattern.test(output)) {
      if (Date.now() > deadline || child.exitCode !== null || child.signalCode !== null) throw new Error(`did not see ${pattern} in:\n${output}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return pattern.exec(output)!;
  };
  return { child, exited, waitFor, output: () => output };
}

/** Starts a gateway process and waits until it listens; its base URL. */
export async function startGatewayProcess(env: Record<string, string>, entry?: GatewayEntry): Promise<GatewayProcess & { baseUrl: string }> {
  const started = runGateway({ PORT: '0', ...env }, entry);
  const [, baseUrl] = await started.waitFor(/listening on (http:\/\/127\.0\.0\.1:\d+)/);
  return { ...started, baseUrl: baseUrl! };
}
