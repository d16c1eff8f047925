// The README's and docs' table of providers, derived from their declarations (a test keeps the
// documents equal to it; `npm run docs:providers` prints it).
import type { ApiKey, ProviderDefinition } from './provider.ts';
import { rateSettingOf } from './rate-setting.ts';

const seconds = (ms: number) => (ms >= 1000 ? `${+(ms / 1000).toFixed(2)} s` : `${ms} ms`);
const duration = (ms: number) => (ms >= 3_600_000 && ms % 3_600_000 === 0 ? `${ms / 3_600_000} h` : ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : seconds(ms));
const bytes = (n: number) => (n >= 1024 * 1024 ? `${+(n / 1024 / 1024).toFixed(1)} MB` : `${Math.round(n / 1024)} KB`);

function rate(provider: ProviderDefinition): string {
  const { requests, perMs, concurrency } = provider.rateLimit;
  return `${requests} per ${duration(perMs)}, ${concurrency} at once (\`${rateSettingOf(provider)}\`)`;
}

const keyPlace = { header: 'header', query: 'query parameter', form: 'form field' } as const;

function keyMeaning(p: ProviderDefinition, key: ApiKey): string {
  const sent = `sent as the ${keyPlace[key.in]} \`${key.name}\``;
  return key.optional ? `optional key or contact for ${p.name}, ${sent}; ${p.name} works without it` : `API key of ${p.name}, ${sent}; ${p.name} is off without it`;
}

/** Settings of every provider: which variable, its default, and what it needs. */
export function providerSettingsTable(providers: readonly ProviderDefinition[]): string {
  const rows = providers.flatMap((p) => [
    `| \`${p.baseUrl.env}\` | ${p.baseUrl.default ? `\`${p.baseUrl.default}\`` : 'unset (off)'} | base URL of ${p.name} (\`off\` turns it off) |`,
    ...(p.apiKey ? [`| \`${p.apiKey.env}\` | unset | ${keyMeaning(p, p.apiKey)} |`] : []),
  ]);
  return ['| variable | default | meaning |', '|---|---|---|', ...rows].join('\n');
}

/** What the layer applies to each provider. */
export function providerLimitsTable(providers: readonly ProviderDefinition[]): string {
  const rows = providers.map(
    (p) =>
      `| ${p.name} (\`${p.id}\`) | ${seconds(p.timeoutMs)} | ${bytes(p.maxBytes)} | ${rate(p)} | ${duration(p.cacheTtlMs)}: ${p.cacheReason} | ${duration(p.staleForMs)} | ${p.attribution} | [terms](${p.termsUrl}), [format](${p.docsUrl}) |`,
  );
  return ['| provider | timeout | size cap | rate limit | cache TTL and why | stale kept | attribution | terms, format |', '|---|---|---|---|---|---|---|---|', ...rows].join('\n');
}
