// DexScreener's public API (docs.dexscreener.com/api/reference), keyless:
//   GET /latest/dex/search?q=USDC      -> {"schemaVersion":"1.0.0","pairs":[Pair, ...]} (`pairs: []` when nothing matches)
//   GET /token-pairs/v1/{chainId}/{tokenAddress} -> [Pair, ...] (a bare array; `[]` when none)
// A Pair: chainId, dexId, url, pairAddress, labels?, baseToken/quoteToken {address, name, symbol},
// priceNative and priceUsd as decimal strings, txns {m5,h1,h6,h24: {buys, sells}}, volume and
// priceChange {m5,h1,h6,h24} as numbers, liquidity? {usd?, base, quote}, fdv?, marketCap?,
// pairCreatedAt? (ms), info?, boosts?. Members marked ? are missing on many real pairs (new or
// thin pools) and stay missing here: never guessed.
import type { RawResponse } from '../http/http-types.ts';
import type { ProviderAnswer, ProviderCaller } from '../provider-call.ts';
import { defineProvider } from '../provider.ts';
import { badAnswer } from '../upstream-errors.ts';
import { bodyText, isJsonObject, stringMember } from './response-body.ts';
import type { JsonObject } from './response-body.ts';

export const dexscreener = defineProvider({
  id: 'dexscreener',
  name: 'DexScreener',
  baseUrl: { env: 'TOOLGATE_DEXSCREENER_URL', default: 'https://api.dexscreener.com' },
  timeoutMs: 6_000,
  maxBytes: 2 * 1024 * 1024,
  // Published limits: 300 requests per minute for pairs, search, tokens and token-pairs.
  rateLimit: { requests: 300, perMs: 60_000, concurrency: 8, maxQueueMs: 2_000 },
  cacheTtlMs: 30_000,
  cacheReason: 'prices and trade counts move by the second; thirty seconds spares DexScreener repeated questions in a burst without serving a stale market',
  staleForMs: 5 * 60_000,
  attribution: 'Market data from DEX Screener (dexscreener.com)',
  termsUrl: 'https://docs.dexscreener.com/api/api-terms-and-conditions',
  docsUrl: 'https://docs.dexscreener.com/api/reference',
});

export type Window = 'm5' | 'h1' | 'h6' | 'h24';
const WINDOWS: readonly Window[] = ['m5', 'h1', 'h6', 'h24'];

export interface PairToken {
  address: string;
  name: string;
  symbol: string;
}

export interface DexPair {
  chainId: string;
  dexId: string;
  url: string | undefined;
  pairAddress: string;
  labels: string[];
  baseToken: PairToken;
  quoteToken: PairToken;
  priceNative: string | undefined;
  priceUsd: string | undefined;
  txns: Partial<Record<Window, { buys: number; sells: number }>>;
  volume: Partial<Record<Window, number>>;
  priceChange: Partial<Record<Window, number>>;
  liquidity: { usd: number | undefined; base: number | undefined; quote: number | undefined } | undefined;
  fdv: number | undefined;
  marketCap: number | undefined;
  /** Epoch milliseconds. */
  pairCreatedAt: number | undefined;
}

const numberMember = (object: JsonObject, key: string): number | undefined => {
  const value = object[key];
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
};

function tokenOf(value: unknown): PairToken | undefined {
  if (!isJsonObject(value)) return undefined;
  const address = stringMember(value, 'address');
  const symbol = stringMember(value, 'symbol');
  if (!address || symbol === undefined) return undefined;
  return { address, symbol, name: stringMember(value, 'name') ?? symbol };
}

function perWindow<T>(value: unknown, read: (member: unknown) => T | undefined): Partial<Record<Window, T>> {
  const out: Partial<Record<Window, T>> = {};
  if (!isJsonObject(value)) return out;
  for (const window of WINDOWS) {
    const read_ = read(value[window]);
    if (read_ !== undefined) out[window] = read_;
  }
  return out;
}

const finite = (member: unknown): number | undefined => (typeof member === 'number' && Number.isFinite(member) ? member : undefined);
const buysAndSells = (member: unknown) => {
  if (!isJsonObject(member)) return undefined;
  const buys = finite(member.buys);
  const sells = finite(member.sells);
  return buys !== undefined && sells !== undefined ? { buys, sells } : undefined;
};

/** One pair, or undefined when it lacks what identifies it (a chain, a DEX, a pair address, its tokens). */
export function pairOf(value: unknown): DexPair | undefined {
  if (!isJsonObject(value)) return undefined;
  const chainId = stringMember(value, 'chainId');
  const dexId = stringMember(value, 'dexId');
  const pairAddress = stringMember(value, 'pairAddress');
  const baseToken = tokenOf(value.baseToken);
  const quoteToken = tokenOf(value.quoteToken);
  if (!chainId || !dexId || !pairAddress || !baseToken || !quoteToken) return undefined;
  const liquidity = isJsonObject(value.liquidity)
    ? { usd: numberMember(value.liquidity, 'usd'), base: numberMember(value.liquidity, 'base'), quote: numberMember(value.liquidity, 'quote') }
    : undefined;
  return {
    chainId,
    dexId,
    url: stringMember(value, 'url'),
    pairAddress,
    labels: Array.isArray(value.labels) ? value.labels.filter((l): l is string => typeof l === 'string') : [],
    baseToken,
    quoteToken,
    priceNative: stringMember(value, 'priceNative'),
    priceUsd: stringMember(value, 'priceUsd'),
    txns: perWindow(value.txns, buysAndSells),
    volume: perWindow(value.volume, finite),
    priceChange: perWindow(value.priceChange, finite),
    liquidity,
    fdv: numberMember(value, 'fdv'),
    marketCap: numberMember(value, 'marketCap'),
    pairCreatedAt: numberMember(value, 'pairCreatedAt'),
  };
}

function parsedJson(response: RawResponse): unknown {
  try {
    return JSON.parse(bodyText(response));
  } catch {
    throw badAnswer(dexscreener.name, `its answer is not JSON (${response.headers['content-type'] ?? 'no content type'})`, response.status);
  }
}

function pairsOf(list: readonly unknown[]): DexPair[] {
  return list.map(pairOf).filter((p): p is DexPair => p !== undefined);
}

/** `/latest/dex/search` and `/latest/dex/pairs`: `{"schemaVersion":..., "pairs": [...] | null}`. */
export function parseSearchAnswer(response: RawResponse): DexPair[] {
  const body = parsedJson(response);
  if (!isJsonObject(body) || !('pairs' in body)) throw badAnswer(dexscreener.name, 'its answer has no pairs member');
  if (body.pairs === null) return [];
  if (!Array.isArray(body.pairs)) throw badAnswer(dexscreener.name, 'its pairs member is not a list');
  return pairsOf(body.pairs);
}

/** `/token-pairs/v1/...` and `/tokens/v1/...`: a bare array of pairs. */
export function parsePairList(response: RawResponse): DexPair[] {
  const body = parsedJson(response);
  if (!Array.isArray(body)) throw badAnswer(dexscreener.name, 'its answer is not a list of pairs');
  return pairsOf(body);
}

export function searchPairs(caller: ProviderCaller, query: string, signal: AbortSignal): Promise<ProviderAnswer<DexPair[]>> {
  return caller.call(dexscreener, { path: '/latest/dex/search', query: { q: query } }, parseSearchAnswer, signal);
}

export function tokenPairs(caller: ProviderCaller, chainId: string, tokenAddress: string, signal: AbortSignal): Promise<ProviderAnswer<DexPair[]>> {
  return caller.call(dexscreener, { path: `/token-pairs/v1/${encodeURIComponent(chainId)}/${encodeURIComponent(tokenAddress)}` }, parsePairList, signal);
}

/** `/tokens/v1/{chainId}/{a,b,...}`: the pairs of up to 30 tokens at once. */
export const TOKENS_PER_REQUEST = 30;

export function pairsOfTokens(caller: ProviderCaller, chainId: string, addresses: readonly string[], signal: AbortSignal): Promise<ProviderAnswer<DexPair[]>> {
  if (addresses.length > TOKENS_PER_REQUEST) throw new Error(`at most ${TOKENS_PER_REQUEST} tokens per request`);
  return caller.call(dexscreener, { path: `/tokens/v1/${encodeURIComponent(chainId)}/${addresses.map(encodeURIComponent).join(',')}` }, parsePairList, signal);
}

/** A token whose promotion on DexScreener was paid for ("boosts"), as /token-boosts/* list them. */
export interface TokenBoost {
  chainId: string;
  tokenAddress: string;
  /** Boost units of the latest order, and the total active on the token. */
  amount: number | undefined;
  totalAmount: number | undefined;
  url: string | undefined;
  description: string | undefined;
}

/** `/token-boosts/top/v1` and `/token-boosts/latest/v1`: a bare array of boosts. */
export function parseBoosts(response: RawResponse): TokenBoost[] {
  const body = parsedJson(response);
  if (!Array.isArray(body)) throw badAnswer(dexscreener.name, 'its boosts answer is not a list');
  const boosts: TokenBoost[] = [];
  for (const item of body) {
    if (!isJsonObject(item)) continue;
    const chainId = stringMember(item, 'chainId');
    const tokenAddress = stringMember(item, 'tokenAddress');
    if (!chainId || !tokenAddress) continue;
    boosts.push({ chainId, tokenAddress, amount: numberMember(item, 'amount'), totalAmount: numberMember(item, 'totalAmount'), url: stringMember(item, 'url'), description: stringMember(item, 'description') });
  }
  return boosts;
}

/** Boost lists are limited to 60 requests a minute: each is kept a minute, so it is asked at most once a minute. */
const BOOSTS_FRESH_MS = 60_000;

export function topBoostedTokens(caller: ProviderCaller, signal: AbortSignal): Promise<ProviderAnswer<TokenBoost[]>> {
  return caller.call(dexscreener, { path: '/token-boosts/top/v1', freshFor: () => BOOSTS_FRESH_MS }, parseBoosts, signal);
}
