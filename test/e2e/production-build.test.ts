// The production build as it is shipped: `scripts/build.mjs` compiles src/ into a folder that holds
// only package.json, dist/ and the production dependencies (`npm install --omit=dev`) WITHOUT tsx;
// plain `node dist/main.js` (no --import, no NODE_OPTIONS) starts its own local chain and the
// official x402 client pays a call whose answer comes from a sandbox worker the build copied.
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { decodePaymentRequiredHeader, decodePaymentResponseHeader } from '@x402/core/http';
import { createPublicClient, erc20Abi, http } from 'viem';
import type { Hex } from 'viem';
import { payingFetch } from '../../examples/pay-with-official-client.ts';
import type { DevChainFile } from '../../src/chain/devchain.ts';
import { startGatewayProcess } from '../support/gateway-process.ts';
import type { GatewayProcess } from '../support/gateway-process.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
let shipped: string; // package.json, dist/, node_modules/ (symlinks to the checkout's packages)

/** The top-level packages `npm install --omit=dev` installs (nested ones come with their parent). */
async function productionPackages(): Promise<string[]> {
  // npm ls exits non-zero on any tree problem but still lists what is there.
  const listed = await new Promise<string>((resolve) =>
    execFile('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: root, maxBuffer: 16 << 20 }, (_error, stdout) => resolve(stdout)),
  );
  const prefix = `${join(root, 'node_modules')}/`;
  return listed
    .split('\n')
    .filter((line) => line.startsWith(prefix))
    .map((line) => line.slice(prefix.length))
    .filter((name) => /^(@[^/]+\/)?[^/]+$/.test(name));
}

/** The production dependencies, linked from the checkout, except tsx: nothing may need a TypeScript loader. */
async function productionNodeModules(target: string): Promise<void> {
  for (const name of await productionPackages()) {
    if (name === 'tsx') continue;
    await mkdir(dirname(join(target, name)), { recursive: true });
    await symlink(join(root, 'node_modules', name), join(target, name));
  }
}

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)));
}

before(async () => {
  shipped = await mkdtemp(join(tmpdir(), 'toolgate-shipped-'));
  await promisify(execFile)(process.execPath, [join(root, 'scripts/build.mjs'), '--out-dir', join(shipped, 'dist')], { cwd: root });
  await copyFile(join(root, 'package.json'), join(shipped, 'package.json'));
  await productionNodeModules(join(shipped, 'node_modules'));
  assert.ok((await readdir(join(shipped, 'node_modules'))).includes('fastify'), 'npm ls listed the production dependencies');
});
after(() => rm(shipped, { recursive: true, force: true }));

test('the build holds JavaScript, declarations and the runtime assets, and no TypeScript source or test', async () => {
  const files = await filesUnder(join(shipped, 'dist'));
  assert.ok(files.includes('main.js'));
  assert.ok(files.includes('main.d.ts'));
  for (const asset of ['catalog/utility/math-worker.mjs', 'catalog/sandbox/worker-host.mjs', 'faces/dashboard/page/dashboard.html']) {
    assert.ok(files.includes(asset), `${asset} copied`);
  }
  assert.deepEqual(files.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts')), []);
  assert.deepEqual(files.filter((f) => /\.test\.|\.fixture\./.test(f)), []);
  assert.match(await readFile(join(shipped, 'dist/main.js'), 'utf8'), /from "\.\/gateway\.js"/);
  const tsImport = /(?:from |import\()["']\.{1,2}\/[^"']+\.ts["']/;
  for (const file of files.filter((f) => f.endsWith('.js'))) {
    assert.doesNotMatch(await readFile(join(shipped, 'dist', file), 'utf8'), tsImport, `${file} imports .ts`);
  }
});

test('plain node runs the build on its own local chain, and the official client pays a call', async () => {
  const dataDir = join(shipped, 'data');
  let server: (GatewayProcess & { baseUrl: string }) | undefined;
  try {
    server = await startGatewayProcess({ TOOLGATE_DATA_DIR: dataDir, TOOLGATE_LOG_LEVEL: 'warn' }, { args: ['dist/main.js'], cwd: shipped });
    await server.waitFor(/devchain\.json written to/);
    const devChain = JSON.parse(await readFile(join(dataDir, 'devchain.json'), 'utf8')) as DevChainFile;
    const chain = createPublicClient({ transport: http(devChain.rpcUrl) });
    const payToBalance = () => chain.readContract({ address: devChain.usdc, abi: erc20Abi, functionName: 'balanceOf', args: [devChain.payTo] });

    const dashboard = await fetch(`${server.baseUrl}/dashboard`);
    assert.equal(dashboard.status, 200);
    assert.match(await dashboard.text(), /<html/i);

    const call = (pay: typeof fetch) =>
      pay(`${server!.baseUrl}/api/eval/math`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ expression: '(1 + 0.05)^10 * 1000' }) });
    const unpaid = await call(fetch);
    assert.equal(unpaid.status, 402);
    const price = BigInt(decodePaymentRequiredHeader(unpaid.headers.get('payment-required')!).accepts[0]!.amount);
    assert.equal(price, 5000n, 'calculate_math costs 0.005 USDC');

    const before = await payToBalance();
    const paid = await call(payingFetch(devChain));
    assert.equal(paid.status, 200);
    assert.equal(((await paid.json()) as { result: string }).result, '1628.89462677744140625');
    const settlement = decodePaymentResponseHeader(paid.headers.get('payment-response')!);
    assert.equal(settlement.success, true);
    assert.equal(settlement.payer, devChain.payer.address);
    assert.match(settlement.transaction, /^0x[0-9a-f]{64}$/);
    assert.equal((await chain.getTransactionReceipt({ hash: settlement.transaction as Hex })).status, 'success');
    assert.equal((await payToBalance()) - before, price);

    server.child.kill('SIGTERM');
    assert.equal(await server.exited, 0);
  } finally {
    server?.child.kill('SIGKILL');
  }
});

test('in the shipped folder, toolgate/client resolves to the compiled library, with plain node', async () => {
  const program = join(shipped, 'uses-client.mjs');
  await writeFile(
    program,
    "const client = await import('toolgate/client');\n" +
      "console.log(JSON.stringify({ from: import.meta.resolve('toolgate/client'), createClient: typeof client.createClient }));\n",
  );
  const { stdout } = await promisify(execFile)(process.execPath, [program], { cwd: shipped, env: { PATH: process.env.PATH ?? '' } });
  const seen = JSON.parse(stdout) as { from: string; createClient: string };
  assert.equal(seen.createClient, 'function');
  assert.ok(seen.from.endsWith('/dist/client/index.js'), seen.from);
});
