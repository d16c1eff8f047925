// The Node versions the README and `engines` claim are ones every installed package accepts, so a
// fresh install on a claimed version prints no EBADENGINE warning.
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { test } from 'node:test';
import semver from 'semver';

const root = resolve(import.meta.dirname, '..');
const ownRange = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { engines: { node: string } }).engines.node;

/** Every installed package's `engines.node`, nested installs included. */
function installedRanges(dir: string, found = new Map<string, string>()): Map<string, string> {
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith('.')) continue;
    const path = join(dir, entry);
    if (entry.startsWith('@')) {
      installedRanges(path, found);
      continue;
    }
    const manifest = join(path, 'package.json');
    if (existsSync(manifest)) {
      const { name, version, engines } = JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string; version?: string; engines?: { node?: unknown } };
      if (typeof engines?.node === 'string') found.set(`${name}@${version}`, engines.node);
    }
    if (existsSync(join(path, 'node_modules'))) installedRanges(join(path, 'node_modules'), found);
  }
  return found;
}

test('every installed package accepts every Node version that package.json engines claims', () => {
  const ranges = installedRanges(join(root, 'node_modules'));
  assert.ok(ranges.size > 50, `${ranges.size} packages declare engines`);
  assert.ok(ranges.has('unpdf@1.8.1') || [...ranges.keys()].some((k) => k.startsWith('unpdf@')), 'unpdf is read');
  const refusing = [...ranges].filter(([, range]) => semver.validRange(range) !== null && !semver.subset(ownRange, range)).map(([pkg, range]) => `${pkg} wants ${range}`);
  assert.deepEqual(refusing, [], `engines.node is ${ownRange}`);
});

test('the README claims the same lowest Node version as engines, and the two LTS lines', () => {
  const readme = readFileSync(join(root, 'README.md'), 'utf8');
  const lowest = semver.minVersion(ownRange)!;
  assert.match(readme, new RegExp(`Node ≥ ${lowest.major}\\.${lowest.minor}\\b`));
  assert.match(readme, /On a fresh machine with Node 22 or 24/);
  for (const line of [22, 24]) assert.ok(semver.satisfies(`${line}.99.0`, ownRange), `Node ${line}`);
});
