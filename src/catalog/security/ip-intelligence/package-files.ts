// Where the offline data of this tool lives: files shipped inside npm packages, found through
// node's own module resolution so they work from any working directory.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Absolute path of a file inside an installed package. Throws when the package is missing. */
export function packageFile(packageName: string, file: string): string {
  return join(dirname(require.resolve(`${packageName}/package.json`)), file);
}

const versions = new Map<string, string | null>();

/** The installed version of a package, or null when it is not installed. */
export function packageVersion(packageName: string): string | null {
  if (!versions.has(packageName)) {
    try {
      const manifest = JSON.parse(readFileSync(packageFile(packageName, 'package.json'), 'utf8')) as { version?: unknown };
      versions.set(packageName, typeof manifest.version === 'string' ? manifest.version : null);
    } catch {
      versions.set(packageName, null);
    }
  }
  return versions.get(packageName) ?? null;
}
