// Rewrites the provider tables in README.md and docs/upstream.md from the providers' declarations
// (npm run docs:providers). test/provider-docs.test.ts fails when they drift apart.
import { writeSection } from '../bench/doc-section.ts';
import { providerLimitsTable, providerSettingsTable } from '../src/upstream/provider-table.ts';
import { providers } from '../src/upstream/providers/index.ts';

export const SETTINGS_MARKERS = { begin: '<!-- provider-settings:start -->', end: '<!-- provider-settings:end -->' };
export const LIMITS_MARKERS = { begin: '<!-- provider-limits:start -->', end: '<!-- provider-limits:end -->' };

export const settingsSection = () => `${SETTINGS_MARKERS.begin}\n${providerSettingsTable(providers)}\n${SETTINGS_MARKERS.end}`;
export const limitsSection = () => `${LIMITS_MARKERS.begin}\n${providerLimitsTable(providers)}\n${LIMITS_MARKERS.end}`;

if (process.argv[1]?.endsWith('provider-docs.ts')) {
  const root = new URL('..', import.meta.url).pathname;
  await writeSection(`${root}README.md`, SETTINGS_MARKERS, settingsSection(), (s) => s);
  await writeSection(`${root}docs/upstream.md`, LIMITS_MARKERS, limitsSection(), (s) => s);
  await writeSection(`${root}docs/upstream.md`, SETTINGS_MARKERS, settingsSection(), (s) => s);
  console.log('provider tables written to README.md and docs/upstream.md');
}
