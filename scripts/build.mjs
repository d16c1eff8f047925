// The production build: compiles src/ to JavaScript with tsconfig.build.json (src/X.ts -> dist/X.js,
// relative `.ts` imports rewritten to `.js`, declarations beside), then copies the files under src/
// that the code reads or loads at run time and tsc does not emit: the sandbox workers (.mjs) and
// their declarations (.d.mts), the dashboard's page (HTML, CSS, JS). Plain JavaScript, so it needs
// no TypeScript loader itself.
// Usage: node scripts/build.mjs [--out-dir <dir>]   (default dist/, emptied first)
import { spawn } from 'node:child_process';
import { copyFile, mkdir, readdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const source = join(root, 'src');

/** Files under src/ that stay out of the build: tests, their fixtures, Solidity kept for reference. */
const notShipped = (name) => name.endsWith('.ts') || /\.(test|fixture)\.|\.sol$/.test(name);

function outDirFrom(args) {
  const at = args.indexOf('--out-dir');
  if (at < 0) return join(root, 'dist');
  if (!args[at + 1]) throw new Error('--out-dir needs a directory');
  const dir = resolve(args[at + 1]);
  // It is emptied first: never the checkout, a folder holding it, or a place inside src/.
  const holdsRoot = !relative(dir, root).startsWith('..');
  if (holdsRoot || !relative(source, dir).startsWith('..')) throw new Error(`--out-dir ${dir}: not a separate folder`);
  return dir;
}

function compile(outDir) {
  const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
  const child = spawn(process.execPath, [tsc, '-p', join(root, 'tsconfig.build.json'), '--outDir', outDir], { stdio: 'inherit' });
  return new Promise((done, fail) => {
    child.once('error', fail);
    child.once('exit', (code) => (code === 0 ? done() : fail(new Error(`tsc exited with ${code}`))));
  });
}

async function copyAssets(dir, outDir) {
  const copied = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) copied.push(...(await copyAssets(path, outDir)));
    else if (!notShipped(entry.name)) {
      const target = join(outDir, relative(source, path));
      await mkdir(dirname(target), { recursive: true });
      await copyFile(path, target);
      copied.push(relative(source, path));
    }
  }
  return copied;
}

const outDir = outDirFrom(process.argv.slice(2));
const started = performance.now();
await rm(outDir, { recursive: true, force: true });
await compile(outDir);
const assets = await copyAssets(source, outDir);
const seconds = ((performance.now() - started) / 1000).toFixed(1);
console.log(`build: ${relative(process.cwd(), outDir) || '.'} in ${seconds} s (${assets.length} files copied beside the JavaScript)`);
