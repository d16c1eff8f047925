// The toolgate command (bin/toolgate.mjs) as a real process, with only PATH, HOME and `env`.
import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const toolgateBin = new URL('../../bin/toolgate.mjs', import.meta.url).pathname;

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The working directory the command runs in: empty, so a `.toolgate/devchain.json` left in the
 * checkout by `npm start` is never read in place of what a test sets (TOOLGATE_DATA_DIR).
 */
const emptyWorkingDir = mkdtempSync(join(tmpdir(), 'toolgate-cli-cwd-'));

export function runToolgate(args: readonly string[], env: Record<string, string>, timeoutMs = 60_000): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [toolgateBin, ...args], {
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...env },
      cwd: emptyWorkingDir,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', reject);
    child.once('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
