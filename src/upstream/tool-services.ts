// What the tools reach the outside world through, built from the configuration: the provider
// layer and the guarded web pages with their headless browser. The gateway and the web bench
// build them the same way.
import type { Logger } from '../log.ts';
import type { Config } from '../config.ts';
import { PageRenderer } from './browser/page-renderer.ts';
import { systemResolver } from './guard/guarded-fetch.ts';
import { providerRedirectGuard } from './guard/provider-redirect-guard.ts';
import type { HostResolver } from './http/http-types.ts';
import { rawFetch } from './http/raw-fetch.ts';
import type { ProviderDefinition } from './provider.ts';
import { providers } from './providers/index.ts';
import { withRateSettings } from './rate-setting.ts';
import { providerUserAgent } from './upstream-config.ts';
import { Upstream } from './upstream.ts';
import { WebPages } from './web-pages.ts';

export interface ToolServices {
  upstream: Upstream;
  web: WebPages;
  close(): Promise<void>;
}

export interface ToolServicesOverrides {
  resolveHost?: HostResolver;
  /** Other declarations of the providers (the web bench lifts their rate limits to measure the layer itself). */
  providers?: readonly ProviderDefinition[];
}

export function createToolServices(config: Pick<Config, 'upstream' | 'publicBaseUrl' | 'network'>, log: Logger, overrides: ToolServicesOverrides = {}): ToolServices {
  const settings = config.upstream;
  const policy = { allowedPorts: settings.fetchAllowedPorts, allow: settings.ssrfAllow, resolve: overrides.resolveHost ?? systemResolver };
  const upstream = new Upstream(withRateSettings(overrides.providers ?? providers, settings.rateLimits), {
    userAgent: providerUserAgent(settings.contact, config.publicBaseUrl),
    baseUrls: settings.baseUrls,
    apiKeys: settings.apiKeys,
    ...(settings.timeoutMs !== undefined ? { timeoutMs: settings.timeoutMs } : {}),
  }, rawFetch, Date.now, providerRedirectGuard(policy));
  const renderer = new PageRenderer({ executablePath: settings.chromiumPath, maxConcurrent: settings.renderConcurrency, log });
  const web = new WebPages({
    policy,
    pageMaxBytes: settings.pageMaxBytes,
    renderer,
  });
  if (settings.ssrfAllow.length > 0) {
    log.warn({ allow: settings.ssrfAllow }, 'TOOLGATE_SSRF_ALLOW opens these addresses to caller-supplied URLs despite the SSRF guard');
  }
  if (!settings.contact && config.network !== 'local') {
    log.warn({}, 'TOOLGATE_CONTACT is not set: several providers ask for a contact (email or URL) in the User-Agent');
  }
  return { upstream, web, close: () => renderer.close() };
}
