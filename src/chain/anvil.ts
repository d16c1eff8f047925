// Starts anvil, the local EVM shipped inside the npm package @foundry-rs/anvil, on 127.0.0.1.
import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';

const require = createRequire(import.meta.url);

export interface AnvilOptions {
  chainId?: number;
  /** Extra command-line arguments, e.g. ['--block-time', '1']. */
  args?: readonly string[];
  startTimeoutMs?: number;
}

export interface RunningAnvil {
  rpcUrl: string;
  chainId: number;
  stop(): Promise<void>;
}

/** The binary inside the platform package: skips the JS wrapper and its start-up cost. */
export function anvilBinaryPath(): string {
  const os = process.platform === 'darwin' ? 'darwin' : process.platform === 'win32' ? 'win32' : 'linux';
  const arch = process.arch === 'arm64' ? 'arm64' : 'amd64';
  const exe = process.platform === 'win32' ? 'anvil.exe' : 'anvil';
  return require.resolve(`@foundry-rs/anvil-${os}-${arch}/bin/${exe}`);
}

export function freeLoopbackPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export async function startAnvil(options: AnvilOptions = {}): Promise<RunningAnvil> {
  const chainId = options.chainId ?? 31337;
  const port = await freeLoopbackPort();
  const child = spawn(
    anvilBinaryPath(),
    ['--host', '127.0.0.1', '--port', String(port), '--chain-id', String(chainId), '--silent', ...(options.args ?? [])],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-10_000);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  // Never leave an orphan chain behind when this process ends.
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);

  const rpcUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + (options.startTimeoutMs ?? 20_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`anvil exited with code ${child.exitCode}: ${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`anvil did not answer on ${rpcUrl} in time: ${output}`);
    }
    try {
      const res = await fetch(rpcUrl, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_chainId', params: [] }),
      });
      if (res.ok) break;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 25));
  }

  return {
    rpcUrl,
    chainId,
    stop: () =>
      new Promise<void>((resolve) => {
        process.off('exit', killOnExit);
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
