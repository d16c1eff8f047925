// The upstream layer's settings, read from the environment: one base-URL setting (and key, where
// one is needed) per declared provider, the contact for the User-Agent, and the SSRF guard's and
// page fetcher's limits. Each problem is returned as one sentence naming the variable.
import { packageVersion } from '../version.ts';
import { chromiumPathFrom } from './browser/chromium-executable.ts';
import { parseAllowList } from './guard/address-policy.ts';
import type { ProviderDefinition, RateLimit } from './provider.ts';
import { parseRateSetting, rateSettingOf } from './rate-setting.ts';

export interface UpstreamConfig {
  /** TOOLGATE_CONTACT: an email or URL providers can reach the operator at. */
  contact: string | undefined;
  /** Per provider id: the configured base URL, 'off' to turn a provider with a default off, or unset for its default. */
  baseUrls: Record<string, string | undefined>;
  apiKeys: Record<string, string | undefined>;
  /** Per provider id: the rate limit its TOOLGATE_<PROVIDER>_RATE setting gives, instead of the declared one. */
  rateLimits: Record<string, RateLimit | undefined>;
  /** TOOLGATE_SSRF_ALLOW: addresses or CIDR blocks caller URLs may reach despite the guard. */
  ssrfAllow: string[];
  /** TOOLGATE_FETCH_ALLOWED_PORTS: ports caller URLs may name. */
  fetchAllowedPorts: number[];
  /** TOOLGATE_PAGE_MAX_BYTES: the largest page body read. */
  pageMaxBytes: number;
  /** TOOLGATE_CHROMIUM_PATH: the browser that renders JavaScript-only pages. */
  chromiumPath: string;
  /** TOOLGATE_RENDER_CONCURRENCY: pages rendered at once (each a browser tab). */
  renderConcurrency: number;
  /** TOOLGATE_UPSTREAM_TIMEOUT_MS: one per-request timeout for every provider instead of each one's own. */
  timeoutMs: number | undefined;
}

export const UPSTREAM_ENV = {
  contact: 'TOOLGATE_CONTACT',
  ssrfAllow: 'TOOLGATE_SSRF_ALLOW',
  fetchAllowedPorts: 'TOOLGATE_FETCH_ALLOWED_PORTS',
  pageMaxBytes: 'TOOLGATE_PAGE_MAX_BYTES',
  chromiumPath: 'TOOLGATE_CHROMIUM_PATH',
  renderConcurrency: 'TOOLGATE_RENDER_CONCURRENCY',
  timeoutMs: 'TOOLGATE_UPSTREAM_TIMEOUT_MS',
} as const;

export const DEFAULT_PAGE_MAX_BYTES = 5 * 1024 * 1024;
export const DEFAULT_RENDER_CONCURRENCY = 4;

const list = (value: string | undefined) => (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);

function isBaseUrl(value: string): boolean {
  // "{lang}"-style placeholders are filled per request; check the URL with a sample value.
  const sample = value.replace(/\{[a-z]+\}/gi, 'x');
  return /^https?:\/\/[^/]/.test(sample) && URL.canParse(sample);
}

function wholeNumber(env: NodeJS.ProcessEnv, name: string, min: number, max: number, fallback: number, problems: string[]): number {
  const raw = env[name]?.trim();
  if (!raw) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || value < min || value > max) {
    problems.push(`${name}: expected a whole number from ${min} to ${max} (got "${raw}")`);
    return fallback;
  }
  return value;
}

export function readUpstreamConfig(env: NodeJS.ProcessEnv, providers: readonly ProviderDefinition[], problems: string[]): UpstreamConfig {
  const baseUrls: Record<string, string | undefined> = {};
  const apiKeys: Record<string, string | undefined> = {};
  const rateLimits: Record<string, RateLimit | undefined> = {};
  for (const provider of providers) {
    const rate = env[rateSettingOf(provider)]?.trim();
    if (rate) {
      const parsed = parseRateSetting(rate, provider.rateLimit);
      if ('problem' in parsed) problems.push(`${rateSettingOf(provider)}: ${parsed.problem}`);
      else rateLimits[provider.id] = parsed.rateLimit;
    }
    const url = env[provider.baseUrl.env]?.trim();
    if (url === 'off') baseUrls[provider.id] = 'off';
    else if (url) {
      if (isBaseUrl(url)) baseUrls[provider.id] = url.replace(/\/+$/, '');
      else problems.push(`${provider.baseUrl.env}: expected the http(s) base URL of ${provider.name}, or "off" (got "${url}")`);
    }
    if (provider.apiKey) apiKeys[provider.id] = env[provider.apiKey.env]?.trim() || undefined;
  }

  const ssrfAllow = list(env[UPSTREAM_ENV.ssrfAllow]);
  try {
    parseAllowList(ssrfAllow);
  } catch (error) {
    problems.push(`${UPSTREAM_ENV.ssrfAllow}: ${(error as Error).message}`);
  }

  const ports = list(env[UPSTREAM_ENV.fetchAllowedPorts]);
  const fetchAllowedPorts = ports.length > 0 ? ports.map(Number) : [80, 443];
  const badPort = ports.find((p) => !/^\d+$/.test(p) || Number(p) < 1 || Number(p) > 65_535);
  if (badPort !== undefined) problems.push(`${UPSTREAM_ENV.fetchAllowedPorts}: expected comma-separated port numbers from 1 to 65535 (got "${badPort}")`);

  return {
    contact: env[UPSTREAM_ENV.contact]?.trim() || undefined,
    baseUrls,
    apiKeys,
    rateLimits,
    ssrfAllow,
    fetchAllowedPorts,
    pageMaxBytes: wholeNumber(env, UPSTREAM_ENV.pageMaxBytes, 64 * 1024, 100 * 1024 * 1024, DEFAULT_PAGE_MAX_BYTES, problems),
    chromiumPath: chromiumPathFrom(env),
    renderConcurrency: wholeNumber(env, UPSTREAM_ENV.renderConcurrency, 1, 64, DEFAULT_RENDER_CONCURRENCY, problems),
    timeoutMs: env[UPSTREAM_ENV.timeoutMs]?.trim() ? wholeNumber(env, UPSTREAM_ENV.timeoutMs, 100, 120_000, 0, problems) : undefined,
  };
}

/** The User-Agent providers see: the product, its version, where it runs and whom to contact. */
export function providerUserAgent(contact: string | undefined, publicBaseUrl: string): string {
  return `toolgate/${packageVersion} (+${publicBaseUrl}${contact ? `; ${contact}` : ''})`;
}
