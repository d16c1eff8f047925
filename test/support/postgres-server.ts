// A throwaway PostgreSQL cluster for tests: Debian's server binaries, initdb + pg_ctl in a temp
// folder, a loopback port, trust authentication for the loopback only. Stopped (and deleted) by stop().
import { execFile } from 'node:child_process';
import { chmod, mkdtemp, readdir, rm } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PostgresServer {
  url: string;
  port: number;
  /** A fresh, empty database on this server. */
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/** Where Debian puts the server binaries (not on PATH): /usr/lib/postgresql/<major>/bin. */
async function serverBinaries(): Promise<string> {
  const root = '/usr/lib/postgresql';
  const majors = existsSync(root) ? (await readdir(root)).filter((v) => /^\d+$/.test(v)).sort((a, b) => Number(b) - Number(a)) : [];
  for (const major of majors) {
    const bin = join(root, major, 'bin');
    if (existsSync(join(bin, 'initdb')) && existsSync(join(bin, 'pg_ctl'))) return bin;
  }
  throw new Error("PostgreSQL's server is not installed: install Debian's `postgresql` package (.ci/run does it)");
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export async function startPostgres(): Promise<PostgresServer> {
  const bin = await serverBinaries();
  const root = await mkdtemp(join(tmpdir(), 'toolgate-pg-'));
  const dataDir = join(root, 'data');
  // initdb refuses to run as root: as root, the cluster belongs to the `postgres` user.
  const asRoot = process.getuid?.() === 0;
  if (asRoot) await chmod(root, 0o777);
  const as = (command: string, args: string[]) => (asRoot ? run('runuser', ['-u', 'postgres', '--', command, ...args]) : run(command, args));
  await as(join(bin, 'initdb'), ['-D', dataDir, '-U', 'postgres', '--auth=trust', '--no-sync', '-E', 'UTF8', '--locale=C']);
  const port = await freePort();
  const options = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=100`;
  await as(join(bin, 'pg_ctl'), ['-D', dataDir, '-o', options, '-l', join(root, 'server.log'), '-w', '-t', '30', 'start']);
  const url = `postgres://postgres@127.0.0.1:${port}/postgres`;
  const { default: pg } = await import('pg');
  return {
    url,
    port,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      try {
        await client.query(`CREATE DATABASE "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
      return `postgres://postgres@127.0.0.1:${port}/${name}`;
    },
    async stop() {
      await as(join(bin, 'pg_ctl'), ['-D', dataDir, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      await rm(root, { recursive: true, force: true });
    },
  };
}
