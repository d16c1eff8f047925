// Launching Chromium so that, even if a request escaped our interception, it could not reach any
// network: all traffic goes to a proxy on a closed loopback port (loopback included), and host
// names never resolve. The real answers come from the route handler (see resource-routing.ts).
import type { Browser, BrowserContextOptions } from 'playwright-core';

/** Port 9 (discard) on loopback: nothing listens there, so a proxied connection fails at once. */
const DEAD_PROXY = 'http://127.0.0.1:9';

const LOCKED_DOWN_ARGS: readonly string[] = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--disable-extensions',
  '--mute-audio',
  `--proxy-server=${DEAD_PROXY}`,
  // Chromium sends loopback around the proxy unless told otherwise.
  '--proxy-bypass-list=<-loopback>',
  // No DNS from Chromium at all (prefetch, preconnect, anything): every host name is "not found".
  '--host-resolver-rules=MAP * ~NOTFOUND',
  // WebRTC may only use the (dead) proxy: no direct UDP, no local address discovery.
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
];

export async function launchChromium(executablePath: string, timeoutMs = 20_000): Promise<Browser> {
  // Imported on the first render, not at start: playwright-core weighs ~40 MB in memory.
  const { chromium } = await import('playwright-core');
  return chromium.launch({ executablePath, args: [...LOCKED_DOWN_ARGS], timeout: timeoutMs, handleSIGINT: false, handleSIGTERM: false, handleSIGHUP: false });
}

/**
 * Chrome's own (reduced) user agent for this version. Headless Chromium would announce itself as
 * "HeadlessChrome", which many sites answer with a block page.
 */
export function chromeUserAgent(browserVersion: string): string {
  const major = /^\d+/.exec(browserVersion)?.[0] ?? '0';
  return `Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/${major}.0.0.0 Safari/537.36`;
}

/** A fresh context per render: nothing (cookies, storage, cache) is shared between callers. */
export function renderContextOptions(userAgent: string): BrowserContextOptions {
  return {
    userAgent,
    viewport: { width: 1280, height: 800 },
    javaScriptEnabled: true,
    serviceWorkers: 'block',
    acceptDownloads: false,
    permissions: [],
    // The proxy again at context level, in case a context ever ignores the launch flags.
    proxy: { server: DEAD_PROXY, bypass: '<-loopback>' },
  };
}
