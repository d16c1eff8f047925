// A 0-100 estimate of how likely a caller is automated software rather than a person at a browser,
// with every point explained. It is additive and deliberately simple: one network signal (where the
// address is announced from) plus one user-agent signal (what the client says it is).
//
// It measures automation, not intent: agents paying through x402 are automated by design and will
// usually score medium or high. No Tor or VPN list is used: no offline source for them ships on npm.
import type { HostingKind } from './hosting-networks.ts';

export type BotRiskLevel = 'low' | 'medium' | 'high';

export interface BotRiskReason {
  code: string;
  points: number;
  detail: string;
}

export interface BotRisk {
  score: number;
  level: BotRiskLevel;
  reasons: BotRiskReason[];
}

/** What the address lookup found; null when the address was not looked up (private, loopback...). */
export type NetworkSignal =
  | { kind: 'known-hosting'; provider: string; hostingKind: HostingKind }
  | { kind: 'hosting-like-name'; organization: string }
  | { kind: 'no-asn' }
  | { kind: 'ordinary' }
  | null;

export const BOT_RISK_POINTS = {
  hostingNetwork: 45,
  cdnOrRelayNetwork: 30,
  hostingLikeOrganization: 25,
  noAsn: 10,
  missingUserAgent: 30,
  headlessBrowser: 40,
  automationClient: 35,
  declaredBot: 30,
  nonBrowserClient: 20,
} as const;

export const BOT_RISK_LEVELS = { medium: 30, high: 60 } as const;

const headless = /HeadlessChrome|PhantomJS|SlimerJS|Puppeteer|Playwright|Selenium|WebDriver|Lighthouse|jsdom/i;
// HTTP libraries and command-line tools, by the product token they send (node's own fetch sends "node").
const automationClient =
  /^(?:node|curl|Wget|python-requests|python-urllib|Python\/|python-httpx|httpx|aiohttp|Go-http-client|node-fetch|undici|axios|got\b|ky\/|okhttp|Java\/|Apache-HttpClient|libwww-perl|LWP::|Ruby|Faraday|PostmanRuntime|insomnia|HTTPie|Scrapy|Deno|Bun\/|reqwest|Dart\/|RestSharp|GuzzleHttp|Mechanize|colly|unirest|k6\/|ApacheBench|aws-sdk|Boto|google-api)/i;
const declaredBot = /(?:bot|crawler|spider|slurp)\b|bot\/|facebookexternalhit|ChatGPT-User|Claude-User|Perplexity-User|anthropic-ai/i;
const browserLike = /^Mozilla\/5\.0 \(.+\) (?:AppleWebKit|Gecko)\//;

function userAgentReason(userAgent: string | undefined): BotRiskReason | null {
  const ua = userAgent?.trim() ?? '';
  if (ua === '') return { code: 'missing-user-agent', points: BOT_RISK_POINTS.missingUserAgent, detail: 'the request carried no User-Agent header' };
  const shown = ua.length > 80 ? `${ua.slice(0, 80)}…` : ua;
  if (headless.test(ua)) return { code: 'headless-browser', points: BOT_RISK_POINTS.headlessBrowser, detail: `the user agent names a headless or automated browser: ${shown}` };
  if (declaredBot.test(ua)) return { code: 'declared-bot', points: BOT_RISK_POINTS.declaredBot, detail: `the user agent declares a bot, crawler or agent: ${shown}` };
  if (automationClient.test(ua)) return { code: 'automation-client', points: BOT_RISK_POINTS.automationClient, detail: `the user agent is an HTTP library or command-line tool: ${shown}` };
  if (!browserLike.test(ua)) return { code: 'non-browser-client', points: BOT_RISK_POINTS.nonBrowserClient, detail: `the user agent is not a web browser's: ${shown}` };
  return null;
}

function networkReason(network: NetworkSignal): BotRiskReason | null {
  if (!network) return null;
  switch (network.kind) {
    case 'known-hosting':
      return network.hostingKind === 'cdn'
        ? { code: 'cdn-or-relay-network', points: BOT_RISK_POINTS.cdnOrRelayNetwork, detail: `the address belongs to ${network.provider}'s edge network (servers, or relays such as WARP or iCloud Private Relay)` }
        : { code: 'hosting-network', points: BOT_RISK_POINTS.hostingNetwork, detail: `the address belongs to ${network.provider}, a ${network.hostingKind} provider` };
    case 'hosting-like-name':
      return { code: 'hosting-like-organization', points: BOT_RISK_POINTS.hostingLikeOrganization, detail: `the network's organisation name suggests hosting: ${network.organization}` };
    case 'no-asn':
      return { code: 'no-asn', points: BOT_RISK_POINTS.noAsn, detail: 'no autonomous system announces this address in the shipped routing data' };
    case 'ordinary':
      return null;
  }
}

export function levelOf(score: number): BotRiskLevel {
  if (score >= BOT_RISK_LEVELS.high) return 'high';
  return score >= BOT_RISK_LEVELS.medium ? 'medium' : 'low';
}

export function assessBotRisk(network: NetworkSignal, userAgent: string | undefined): BotRisk {
  const reasons = [networkReason(network), userAgentReason(userAgent)].filter((reason): reason is BotRiskReason => reason !== null);
  const score = Math.min(100, reasons.reduce((sum, reason) => sum + reason.points, 0));
  return { score, level: levelOf(score), reasons };
}
