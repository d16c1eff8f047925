// An operator's own rate for a provider: their own Nominatim or MET proxy is not bound by the
// public service's policy. One setting per provider, named after its base-URL setting
// (TOOLGATE_NOMINATIM_URL -> TOOLGATE_NOMINATIM_RATE): "20/s", "600/min" or "5000/h", optionally
// followed by the requests allowed in flight at once: "20/s,8".
import type { ProviderDefinition, RateLimit } from './provider.ts';

const WINDOWS: Readonly<Record<string, number>> = { s: 1_000, min: 60_000, h: 3_600_000 };
const FORM = /^(\d+)\s*\/\s*(s|min|h)\s*(?:,\s*(\d+))?$/;

export function rateSettingOf(provider: ProviderDefinition): string {
  return provider.baseUrl.env.replace(/_URL$/, '') + '_RATE';
}

/** The rate limit a setting gives, or the sentence that says what was expected. */
export function parseRateSetting(raw: string, declared: RateLimit): { rateLimit: RateLimit } | { problem: string } {
  const match = FORM.exec(raw.trim());
  const requests = Number(match?.[1]);
  const concurrency = match?.[3] === undefined ? declared.concurrency : Number(match[3]);
  if (!match || requests < 1 || requests > 100_000 || concurrency < 1 || concurrency > 1_000) {
    return { problem: `expected requests per window such as "20/s", "600/min" or "5000/h", optionally with requests at once ("20/s,8") (got "${raw}")` };
  }
  return { rateLimit: { ...declared, requests, perMs: WINDOWS[match[2]!]!, concurrency } };
}

/** The declarations with each operator-set rate applied. */
export function withRateSettings(providers: readonly ProviderDefinition[], rates: Readonly<Record<string, RateLimit | undefined>>): ProviderDefinition[] {
  return providers.map((provider) => {
    const rateLimit = rates[provider.id];
    return rateLimit ? { ...provider, rateLimit } : provider;
  });
}
