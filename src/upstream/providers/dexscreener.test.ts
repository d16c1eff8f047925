import assert from 'node:assert/strict';
import { test } from 'node:test';
import { UpstreamError } from '../upstream-errors.ts';
import { parsePairList, parseSearchAnswer, searchPairs, tokenPairs } from './dexscreener.ts';
import { fixtureResponse, rawResponse, RecordingCaller } from './recording-caller.ts';

test('a real search answer: every member read as published, strings kept as strings', () => {
  const pairs = parseSearchAnswer(fixtureResponse('dexscreener', 'search-babydojo-injective.json'));
  assert.equal(pairs.length, 2);
  const [first] = pairs;
  assert.equal(first!.chainId, 'injective');
  assert.equal(first!.dexId, 'dojoswap');
  assert.deepEqual(first!.baseToken, { address: 'inj19dtllzcquads0hu3ykda9m58llupksqwekkfnw', name: 'Baby DOJO Token', symbol: 'babyDOJO' });
  assert.equal(first!.priceUsd, '0.004531');
  assert.deepEqual(first!.txns.h24, { buys: 14, sells: 768 });
  assert.equal(first!.volume.h24, 250142.62);
  assert.equal(first!.priceChange.h6, -8.18);
  assert.deepEqual(first!.liquidity, { usd: 879284.45, base: 97226486, quote: 682929 });
  assert.equal(first!.pairCreatedAt, 1710685033000);
  assert.equal(first!.fdv, undefined);
});

test('missing optional members stay missing; an empty search is no pairs', () => {
  const pairs = parsePairList(fixtureResponse('dexscreener', 'token-pairs-usdc-base.json'));
  assert.equal(pairs.length, 3);
  assert.equal(pairs[2]!.liquidity, undefined);
  assert.equal(pairs[2]!.pairCreatedAt, undefined);
  assert.deepEqual(parseSearchAnswer(fixtureResponse('dexscreener', 'search-empty.json')), []);
  assert.deepEqual(parseSearchAnswer(rawResponse('{"schemaVersion":"1.0.0","pairs":null}')), []);
});

test('what is not DexScreener\'s format is a bad answer', () => {
  for (const body of ['<html>Just a moment...</html>', '{"schemaVersion":"1.0.0"}', '{"pairs":{}}']) {
    assert.throws(() => parseSearchAnswer(rawResponse(body)), (e: unknown) => e instanceof UpstreamError && e.status === 502, body);
  }
  assert.throws(() => parsePairList(rawResponse('{"schemaVersion":"1.0.0","pairs":[]}')), UpstreamError);
});

test('the requests: search by q, token pairs by chain and address', async () => {
  const caller = new RecordingCaller(fixtureResponse('dexscreener', 'search-usdc.json'));
  await searchPairs(caller, 'USDC', new AbortController().signal);
  assert.deepEqual(caller.calls[0]!.request.query, { q: 'USDC' });
  assert.equal(caller.calls[0]!.request.path, '/latest/dex/search');
  const pairsCaller = new RecordingCaller(fixtureResponse('dexscreener', 'token-pairs-usdc-base.json'));
  await tokenPairs(pairsCaller, 'base', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', new AbortController().signal);
  assert.equal(pairsCaller.calls[0]!.request.path, '/token-pairs/v1/base/0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913');
});
