// The house's floors, as imports: the layers below the catalogue never reach up into it (or into
// the faces and payments above them), so a change to a tool never ripples down into the way out.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { test } from 'node:test';

const root = resolve(import.meta.dirname, '..');

/** Folders of src/ and what each must never import from. */
const below: Readonly<Record<string, readonly string[]>> = {
  'src/errors': ['src/catalog', 'src/upstream', 'src/payments', 'src/faces'],
  'src/net': ['src/catalog', 'src/payments', 'src/faces'],
  'src/upstream': ['src/catalog', 'src/payments', 'src/faces'],
  'src/chain': ['src/catalog', 'src/faces'],
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return entry.endsWith('.ts') && !entry.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every relative import or export-from of a file, as a path from the project's root. */
function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  return [...text.matchAll(/^\s*(?:import|export)\b[^'"]*?\bfrom\s+['"](\.{1,2}\/[^'"]+)['"]/gm)].map((m) => relative(root, resolve(dirname(file), m[1]!)));
}

test('the layers below the catalogue import nothing from the floors above them', () => {
  const climbing: string[] = [];
  for (const [folder, forbidden] of Object.entries(below)) {
    for (const file of sourceFiles(join(root, folder))) {
      for (const target of importsOf(file)) {
        if (forbidden.some((f) => target.startsWith(`${f}/`))) climbing.push(`${relative(root, file)} -> ${target}`);
      }
    }
  }
  assert.deepEqual(climbing, []);
});

test('the import reader sees the arrow it guards against', () => {
  // A guard whose reader found nothing would pass for ever: it must see upstream's own imports.
  assert.ok(importsOf(join(root, 'src/upstream/upstream-errors.ts')).includes('src/errors/tool-error.ts'));
});
