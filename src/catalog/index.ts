// The catalogue: every tool the gateway sells, in the spec's order. Adding a tool is one file
// and one line here; every face and document is derived from this list.
import { distillTool } from './ai/distill.ts';
import { embedTool } from './ai/embed.ts';
import { translateTool } from './ai/translate.ts';
import { alphaSignalsTool } from './crypto/alpha-signals.ts';
import { contractAuditTool } from './crypto/contract-audit.ts';
import { gasTool } from './crypto/gas.ts';
import { tokenAnalyticsTool } from './crypto/token-analytics.ts';
import { unitConvertTool } from './crypto/unit-convert.ts';
import { verifySignatureTool } from './crypto/verify-signature.ts';
import { walletTool } from './crypto/wallet.ts';
import { exchangeRatesTool } from './knowledge/exchange-rates.ts';
import { reverseGeocodeTool } from './knowledge/reverse-geocode.ts';
import { weatherTool } from './knowledge/weather.ts';
import { wikiTool } from './knowledge/wiki.ts';
import { domainLookupTool } from './security/domain-lookup.ts';
import { ipIntelligenceTool } from './security/ip-intelligence.ts';
import type { Tool } from './tool.ts';
import { hashesAndUuidsTool } from './utility/hashes-and-uuids.ts';
import { mathTool } from './utility/math.ts';
import { qrCodeTool } from './utility/qr-code.ts';
import { regexTool } from './utility/regex.ts';
import { timezoneTool } from './utility/timezone.ts';
import { transformTool } from './utility/transform.ts';
import { browseTool } from './web/browse.ts';
import { deepSearchTool } from './web/deep-search.ts';
import { opengraphTool } from './web/opengraph.ts';
import { searchTool } from './web/search.ts';
import { trendingNewsTool } from './web/trending-news.ts';
import { waybackTool } from './web/wayback.ts';

const tools = [
  browseTool,
  searchTool,
  distillTool,
  alphaSignalsTool,
  contractAuditTool,
  tokenAnalyticsTool,
  gasTool,
  domainLookupTool,
  embedTool,
  mathTool,
  trendingNewsTool,
  qrCodeTool,
  walletTool,
  ipIntelligenceTool,
  verifySignatureTool,
  unitConvertTool,
  opengraphTool,
  weatherTool,
  timezoneTool,
  transformTool,
  regexTool,
  hashesAndUuidsTool,
  translateTool,
  deepSearchTool,
  exchangeRatesTool,
  wikiTool,
  reverseGeocodeTool,
  waybackTool,
] as const;

/** The catalogue's tools with their own names, inputs and outputs (the typed client derives from it). */
export type CatalogTools = typeof tools;

export const catalog: readonly Tool[] = tools;
