#!/usr/bin/env node
// The toolgate command. From a checkout it runs src/cli/main.ts through tsx (a runtime
// dependency); where only the compiled build exists, dist/cli/main.js.
import { existsSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

// `toolgate tools | head`: a closed pipe ends the command quietly.
process.stdout.on('error', (error) => {
  if (error.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw error;
});

const source = fileURLToPath(new URL('../src/cli/main.ts', import.meta.url));
let entry;
if (existsSync(source)) {
  const { register } = await import('tsx/esm/api');
  register();
  entry = pathToFileURL(source).href;
} else {
  entry = new URL('../dist/cli/main.js', import.meta.url).href;
}
const { runCli } = await import(entry);
process.exitCode = await runCli(process.argv.slice(2));
