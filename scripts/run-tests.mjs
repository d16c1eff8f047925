// Runs every *.test.ts under src/ and test/ with node's own test runner (through tsx).
// Slow suites (*.slow.test.ts: load, fuzz) are left to their own npm scripts.
// Usage: node scripts/run-tests.mjs [--slow] [path-filter...]
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const args = process.argv.slice(2);
const slow = args.includes('--slow');
const filters = args.filter((a) => !a.startsWith('--'));

function findTests(dir) {
  const found = [];
  for (const entry of readdirSync(dir)) {
    if (entry === 'node_modules' || entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) found.push(...findTests(path));
    else if (entry.endsWith('.test.ts') && entry.endsWith('.slow.test.ts') === slow) found.push(path);
  }
  return found;
}

const files = ['src', 'test']
  .flatMap((dir) => findTests(dir))
  .filter((file) => filters.length === 0 || filters.some((f) => file.includes(f)))
  .sort();
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(1);
}
const child = spawn(
  process.execPath,
  // toolgate-source: `toolgate/client` resolves to src/ here (package.json exports; dist/ when shipped).
  ['--conditions=toolgate-source', '--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files],
  { stdio: 'inherit' },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
