// toolgate as a child process in local mode: PORT + a fresh TOOLGATE_DATA_DIR and no other
// configuration. It starts its own anvil + USDC and writes devchain.json, which the bench reuses.
import { existsSync, readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { ROUTE, readDevChain, type DevChain } from './chain.ts';
import { spawnNode, type Child } from './child.ts';
import { freePort } from './devchain-for-reference.ts';

export interface RunningToolgate {
  child: Child;
  url: string;
  devChain: DevChain;
  /** Why toolgate cannot be measured on ROUTE, or undefined if it answers ROUTE with a 402. */
  routeProblem: string | undefined;
}

/** The server as developed (through tsx) and as shipped (`npm run build`, plain node). */
export const TOOLGATE_ENTRY = { source: resolve('src/main.ts'), compiled: resolve('dist/main.js') } as const;

/** The node flags of `npm run start:prod` (package.json), so that the bench runs what production runs. */
function productionNodeFlags(): string[] {
  const script = (JSON.parse(readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> }).scripts['start:prod'] ?? '';
  const words = script.split(/\s+/);
  if (words[0] !== 'node' || words.at(-1) !== 'dist/main.js') throw new Error(`start:prod is "${script}": expected node [flags] dist/main.js`);
  return words.slice(1, -1);
}

/** PORT, TOOLGATE_DATA_DIR and the bench's own `extra`: any TOOLGATE_* already in the environment is dropped. */
function toolgateEnv(port: number, dataDir: string, extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) if (!key.startsWith('TOOLGATE_')) env[key] = value;
  return { ...env, ...extra, PORT: String(port), TOOLGATE_DATA_DIR: dataDir };
}

async function status(url: string): Promise<number | string> {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2_000) });
    await res.arrayBuffer();
    return res.status;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** `extraEnv`: settings a benchmark needs (e.g. TOOLGATE_CHANNEL_CLAIM_INTERVAL_S); the run's own TOOLGATE_* are still dropped. */
export async function startToolgate(dataDir: string, logFile: string, timeoutMs: number, build: keyof typeof TOOLGATE_ENTRY = 'source', extraEnv: Record<string, string> = {}): Promise<RunningToolgate> {
  const entry = TOOLGATE_ENTRY[build];
  if (!existsSync(entry)) throw new Error(`${entry} does not exist${build === 'compiled' ? ' (npm run build)' : ' yet'}`);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  // BENCH_TOOLGATE_NODE_FLAGS: node flags for toolgate alone, e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof" (not allowed in NODE_OPTIONS).
  const debugFlags = (process.env.BENCH_TOOLGATE_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean);
  const child = build === 'compiled'
    ? spawnNode('toolgate', [...productionNodeFlags(), ...debugFlags, entry], toolgateEnv(port, dataDir, extraEnv), logFile)
    : spawnNode('toolgate', [...debugFlags, '--import', 'tsx', entry], toolgateEnv(port, dataDir, extraEnv), logFile);
  try {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (child.process.exitCode !== null) throw new Error(`toolgate exited with code ${child.process.exitCode} (log: ${logFile})`);
      if (Date.now() > deadline) throw new Error(`toolgate did not answer GET /health within ${timeoutMs} ms (log: ${logFile})`);
      if ((await status(`${url}/health`)) === 200) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const devChainFile = join(dataDir, 'devchain.json');
    if (!existsSync(devChainFile)) throw new Error(`toolgate is up but wrote no ${devChainFile}`);
    const devChain = await readDevChain(devChainFile);
    const routeStatus = await status(`${url}${ROUTE}`);
    const routeProblem = routeStatus === 402 ? undefined : `GET ${ROUTE} answered ${routeStatus}, not 402`;
    return { child, url, devChain, routeProblem };
  } catch (error) {
    await child.stop();
    throw error;
  }
}

/**
 * After /health answers, toolgate still loads its local tools' data in the background (GloVe vectors,
 * IP databases, math and regex workers: src/warm-up.ts), several seconds of CPU. Waits for the line it
 * logs when that is done (or has failed); resolves with that line, or undefined after `timeoutMs`.
 */
export async function waitForWarmUp(toolgate: RunningToolgate, timeoutMs: number): Promise<string | undefined> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const log = await readFile(toolgate.child.logFile, 'utf8').catch(() => '');
    const line = /^.*(?:local tools warmed up|warming up the local tools failed).*$/m.exec(log)?.[0];
    if (line) return line.trim();
    await new Promise((r) => setTimeout(r, 250));
  }
  return undefined;
}
