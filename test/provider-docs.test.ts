// The provider tables in the README and docs/upstream.md are the ones the declarations give:
// a provider added, or a limit changed, without `npm run docs:providers` fails here.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { limitsSection, settingsSection } from '../scripts/provider-docs.ts';
import { providers } from '../src/upstream/providers/index.ts';
import { UPSTREAM_ENV } from '../src/upstream/upstream-config.ts';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const upstreamDoc = readFileSync(new URL('../docs/upstream.md', import.meta.url), 'utf8');

test('the README\'s provider settings are derived from the declarations', () => {
  assert.ok(readme.includes(settingsSection()), 'run npm run docs:providers');
});

test('docs/upstream.md holds the limits, TTLs and attributions of every provider', () => {
  assert.ok(upstreamDoc.includes(limitsSection()), 'run npm run docs:providers');
  for (const provider of providers) assert.ok(upstreamDoc.includes(provider.cacheReason), provider.id);
});

test('every upstream setting is in the README', () => {
  for (const name of Object.values(UPSTREAM_ENV)) assert.ok(readme.includes(`\`${name}\``), name);
});
